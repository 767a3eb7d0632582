package dev.interlock.statemachine.engine;

import static dev.interlock.statemachine.engine.Harness.T0;
import static dev.interlock.statemachine.engine.Harness.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

class EngineJsonTest {

    private final ObjectMapper mapper = EngineJson.mapper();

    @Test
    void descriptionUsesAwsFieldNamesEpochSecondsAndOmitsNulls() throws Exception {
        ExecutionDescription d = new ExecutionDescription(
                "arn:e", "arn:sm", "n", ExecutionStatus.FAILED, T0, T0.plusMillis(1500), "{}", null, "Boom", "why");
        String text = mapper.writeValueAsString(d);
        assertThat(json(text)).isEqualTo(json("""
                {"executionArn":"arn:e","stateMachineArn":"arn:sm","name":"n","status":"FAILED",
                 "startDate":1772323200.000000000,"stopDate":1772323201.500000000,"input":"{}",
                 "error":"Boom","cause":"why"}"""));
        assertThat(mapper.readValue(text, ExecutionDescription.class)).isEqualTo(d);
    }

    @Test
    void summariesAndPagesRoundTrip() throws Exception {
        ExecutionSummary s = new ExecutionSummary("arn:e", "arn:sm", "n", ExecutionStatus.RUNNING, T0, null);
        Page<ExecutionSummary> page = new Page<>(List.of(s), "1");
        String text = mapper.writeValueAsString(page);
        assertThat(json(text)).isEqualTo(json("""
                {"items":[{"executionArn":"arn:e","stateMachineArn":"arn:sm","name":"n","status":"RUNNING",
                  "startDate":1772323200.000000000}],"nextToken":"1"}"""));
        assertThat(mapper.readValue(mapper.writeValueAsString(s), ExecutionSummary.class))
                .isEqualTo(s);
    }

    @Test
    void everyEventTypeWithDetailsRoundTrips() throws Exception {
        List<HistoryEvent> events = List.of(
                new HistoryEvent(
                        1,
                        0,
                        T0,
                        HistoryEventType.TaskTimedOut,
                        new EventDetails.TaskError("lambda", "invoke", "States.Timeout", "slow")),
                new HistoryEvent(2, 1, T0, HistoryEventType.MapIterationAborted, new EventDetails.MapIteration("M", 3)),
                new HistoryEvent(3, 2, T0, HistoryEventType.ParallelStateFailed, null),
                new HistoryEvent(4, 3, T0, HistoryEventType.ExecutionAborted, new EventDetails.Failure(null, null)));
        String text = mapper.writeValueAsString(events);
        assertThat(json(text)
                        .get(0)
                        .get("taskTimedOutEventDetails")
                        .get("error")
                        .asText())
                .isEqualTo("States.Timeout");
        assertThat(json(text)
                        .get(1)
                        .get("mapIterationAbortedEventDetails")
                        .get("index")
                        .asInt())
                .isEqualTo(3);
        assertThat(json(text).get(2).size()).isEqualTo(4);
        assertThat(mapper.readValue(text, HistoryEvent[].class)).containsExactlyElementsOf(events);
    }
}
