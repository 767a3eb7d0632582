package dev.interlock.statemachine.engine;

import static dev.interlock.statemachine.engine.Harness.T0;
import static dev.interlock.statemachine.engine.Harness.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;

class HistoryTest {

    private final Harness h = new Harness();

    private Execution runSmallMachine() {
        h.resources.function(
                "arn:aws:lambda:us-east-1:123456789012:function:orchestrator", inv -> json("{\"result\":\"proceed\"}"));
        StateMachine machine = h.machine("""
                {"StartAt":"Init","States":{
                  "Init":{"Type":"Pass","Result":{"n":1},"ResultPath":"$.init","Next":"Call"},
                  "Call":{"Type":"Task","Resource":"arn:aws:states:::lambda:invoke",
                          "Parameters":{"FunctionName":"arn:aws:lambda:us-east-1:123456789012:function:orchestrator",
                                        "Payload":{"action":"check"}},
                          "ResultSelector":{"result.$":"$.Payload.result"},"ResultPath":"$.call","Next":"Decide"},
                  "Decide":{"Type":"Choice","Choices":[{"Variable":"$.call.result","StringEquals":"proceed",
                            "Next":"Pause"}],"Default":"Stop"},
                  "Pause":{"Type":"Wait","Seconds":30,"Next":"Done"},
                  "Done":{"Type":"Succeed"},
                  "Stop":{"Type":"Fail","Error":"Stopped"}}}""");
        Execution execution = machine.start("history", "{}");
        Harness.await(execution);
        return execution;
    }

    @Test
    void eventsFollowTheAwsSequenceWithLinkedIds() {
        List<HistoryEvent> events = runSmallMachine().history();
        assertThat(Harness.types(events))
                .containsExactly(
                        HistoryEventType.ExecutionStarted,
                        HistoryEventType.PassStateEntered,
                        HistoryEventType.PassStateExited,
                        HistoryEventType.TaskStateEntered,
                        HistoryEventType.TaskScheduled,
                        HistoryEventType.TaskStarted,
                        HistoryEventType.TaskSucceeded,
                        HistoryEventType.TaskStateExited,
                        HistoryEventType.ChoiceStateEntered,
                        HistoryEventType.ChoiceStateExited,
                        HistoryEventType.WaitStateEntered,
                        HistoryEventType.WaitStateExited,
                        HistoryEventType.SucceedStateEntered,
                        HistoryEventType.SucceedStateExited,
                        HistoryEventType.ExecutionSucceeded);
        for (int i = 0; i < events.size(); i++) {
            assertThat(events.get(i).id()).isEqualTo(i + 1);
            assertThat(events.get(i).previousEventId()).isEqualTo(i);
        }
        assertThat(events.get(11).timestamp()).isEqualTo(T0.plusSeconds(30));
    }

    @Test
    void detailsCarryTheFieldsAwsReports() {
        List<HistoryEvent> events = runSmallMachine().history();
        assertThat(events.get(3).details())
                .isEqualTo(new EventDetails.StateEntered(
                        "Call", "{\"init\":{\"n\":1}}", EventDetails.PayloadDetails.NOT_TRUNCATED));
        assertThat(events.get(4).details())
                .isEqualTo(new EventDetails.TaskScheduled(
                        "lambda",
                        "invoke",
                        "us-east-1",
                        "{\"FunctionName\":\"arn:aws:lambda:us-east-1:123456789012:function:orchestrator\","
                                + "\"Payload\":{\"action\":\"check\"}}",
                        null,
                        null));
        assertThat(events.get(6).details())
                .isEqualTo(new EventDetails.TaskSucceeded(
                        "lambda",
                        "invoke",
                        "{\"ExecutedVersion\":\"$LATEST\",\"Payload\":{\"result\":\"proceed\"},\"StatusCode\":200}",
                        EventDetails.PayloadDetails.NOT_TRUNCATED));
        assertThat(events.get(14).details())
                .isEqualTo(new EventDetails.ExecutionSucceeded(
                        "{\"init\":{\"n\":1},\"call\":{\"result\":\"proceed\"}}",
                        EventDetails.PayloadDetails.NOT_TRUNCATED));
    }

    @Test
    void serialisesLikeGetExecutionHistoryAndReadsBack() throws Exception {
        List<HistoryEvent> events = runSmallMachine().history();
        String text = EngineJson.mapper().writeValueAsString(events);
        JsonNode tree = json(text);
        assertThat(tree.get(0)).isEqualTo(json("""
                {"id":1,"previousEventId":0,"timestamp":1772323200.000000000,"type":"ExecutionStarted",
                 "executionStartedEventDetails":{"input":"{}","inputDetails":{"truncated":false},
                   "roleArn":"arn:aws:iam::123456789012:role/test-role"}}"""));
        assertThat(tree.get(4)
                        .get("taskScheduledEventDetails")
                        .get("resourceType")
                        .asText())
                .isEqualTo("lambda");
        assertThat(tree.get(5).has("taskStartedEventDetails")).isTrue();
        List<HistoryEvent> back = EngineJson.mapper().readValue(text, new TypeReference<List<HistoryEvent>>() {});
        assertThat(back).isEqualTo(events);
    }

    @Test
    void failedTaskAndFailStateProduceFailureEvents() {
        h.resources.resource("arn:test:fail", inv -> {
            throw new TaskFailedException("Bad", "it broke");
        });
        StateMachine machine = h.machine("""
                {"StartAt":"T","States":{"T":{"Type":"Task","Resource":"arn:test:fail","End":true}}}""");
        Execution execution = machine.start("f", "{}");
        Harness.await(execution);
        List<HistoryEvent> events = execution.history();
        assertThat(Harness.types(events))
                .containsExactly(
                        HistoryEventType.ExecutionStarted,
                        HistoryEventType.TaskStateEntered,
                        HistoryEventType.TaskScheduled,
                        HistoryEventType.TaskStarted,
                        HistoryEventType.TaskFailed,
                        HistoryEventType.ExecutionFailed);
        assertThat(events.get(4).details())
                .isEqualTo(new EventDetails.TaskError("custom", "arn:test:fail", "Bad", "it broke"));
        assertThat(events.get(5).details()).isEqualTo(new EventDetails.Failure("Bad", "it broke"));
    }

    @Test
    void mapEventsAreRecorded() {
        StateMachine machine = h.machine("""
                {"StartAt":"M","States":{"M":{"Type":"Map","MaxConcurrency":1,
                  "ItemProcessor":{"StartAt":"P","States":{"P":{"Type":"Pass","End":true}}},"End":true}}}""");
        Execution execution = machine.start("map", "[\"a\",\"b\"]");
        Harness.await(execution);
        assertThat(Harness.types(execution.history()))
                .containsExactly(
                        HistoryEventType.ExecutionStarted,
                        HistoryEventType.MapStateEntered,
                        HistoryEventType.MapStateStarted,
                        HistoryEventType.MapIterationStarted,
                        HistoryEventType.PassStateEntered,
                        HistoryEventType.PassStateExited,
                        HistoryEventType.MapIterationSucceeded,
                        HistoryEventType.MapIterationStarted,
                        HistoryEventType.PassStateEntered,
                        HistoryEventType.PassStateExited,
                        HistoryEventType.MapIterationSucceeded,
                        HistoryEventType.MapStateSucceeded,
                        HistoryEventType.MapStateExited,
                        HistoryEventType.ExecutionSucceeded);
        assertThat(execution.history().get(2).details()).isEqualTo(new EventDetails.MapStateStarted(2));
        assertThat(execution.history().get(7).details()).isEqualTo(new EventDetails.MapIteration("M", 1));
        // Each iteration's first event follows MapStateStarted.
        assertThat(execution.history().get(7).previousEventId()).isEqualTo(3);
    }

    @Test
    void parallelEventsAreRecorded() {
        StateMachine machine = h.machine("""
                {"StartAt":"P","States":{"P":{"Type":"Parallel","End":true,"Branches":[
                  {"StartAt":"A","States":{"A":{"Type":"Pass","End":true}}}]}}}""");
        Execution execution = machine.start("par", "{}");
        Harness.await(execution);
        assertThat(Harness.types(execution.history()))
                .containsExactly(
                        HistoryEventType.ExecutionStarted,
                        HistoryEventType.ParallelStateEntered,
                        HistoryEventType.ParallelStateStarted,
                        HistoryEventType.PassStateEntered,
                        HistoryEventType.PassStateExited,
                        HistoryEventType.ParallelStateSucceeded,
                        HistoryEventType.ParallelStateExited,
                        HistoryEventType.ExecutionSucceeded);
    }

    @Test
    void aFunctionArnResourceIsRecordedAsLambdaFunctionEvents() {
        String arn = "arn:aws:lambda:us-east-1:123456789012:function:evaluator";
        int[] calls = {0};
        h.resources.function(arn, inv -> {
            if (calls[0]++ == 0) {
                throw new TaskFailedException("Lambda.ServiceException", "try again");
            }
            return json("{\"status\":\"PASS\"}");
        });
        StateMachine machine = h.machine("""
                {"StartAt":"T","States":{"T":{"Type":"Task","Resource":"%s","TimeoutSeconds":30,
                  "Retry":[{"ErrorEquals":["Lambda.ServiceException"]}],"End":true}}}""".formatted(arn));
        Execution execution = machine.start("lambda", "{\"trait\":\"x\"}");
        Harness.await(execution);
        List<HistoryEvent> events = execution.history();
        assertThat(Harness.types(events))
                .containsExactly(
                        HistoryEventType.ExecutionStarted,
                        HistoryEventType.TaskStateEntered,
                        HistoryEventType.LambdaFunctionScheduled,
                        HistoryEventType.LambdaFunctionStarted,
                        HistoryEventType.LambdaFunctionFailed,
                        HistoryEventType.LambdaFunctionScheduled,
                        HistoryEventType.LambdaFunctionStarted,
                        HistoryEventType.LambdaFunctionSucceeded,
                        HistoryEventType.TaskStateExited,
                        HistoryEventType.ExecutionSucceeded);
        assertThat(events.get(2).details())
                .isEqualTo(new EventDetails.LambdaFunctionScheduled(
                        arn, "{\"trait\":\"x\"}", EventDetails.PayloadDetails.NOT_TRUNCATED, 30L));
        assertThat(events.get(3).details()).isNull();
        assertThat(events.get(4).details()).isEqualTo(new EventDetails.Failure("Lambda.ServiceException", "try again"));
        assertThat(events.get(5).timestamp()).isEqualTo(T0.plusSeconds(1));
        assertThat(events.get(7).details())
                .isEqualTo(new EventDetails.LambdaFunctionSucceeded(
                        "{\"status\":\"PASS\"}", EventDetails.PayloadDetails.NOT_TRUNCATED));
    }
}
