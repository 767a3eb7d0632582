package dev.interlock.streamrouter;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.amazonaws.services.lambda.runtime.tests.EventLoader;
import dev.interlock.model.marker.ExecutionName;
import dev.interlock.model.runtime.Environment;
import dev.interlock.wiring.Deps;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StreamRouterDepsTest {

    @Test
    void theDepsWiredHandlerStartsExecutionsOnTheConfiguredStateMachineAndEndpoint() throws Exception {
        try (StepFunctionsStub stub = new StepFunctionsStub();
                Deps deps = new Deps(
                        Environment.of(Map.of(
                                "TABLE_NAME", "interlock",
                                "STATE_MACHINE_ARN", "arn:aws:states:eu-west-1:123456789012:stateMachine:pipeline",
                                "STALE_MARKER_DAYS", "5",
                                "AWS_REGION", "eu-west-1",
                                "INTERLOCK_ENDPOINT_STEPFUNCTIONS",
                                        stub.endpoint().toString())),
                        Clock.fixed(Instant.parse("2026-03-12T09:00:00Z"), ZoneOffset.UTC))) {
            StreamRouterHandler handler = new StreamRouterHandler(deps);

            StreamsEventResponse response =
                    handler.handleRequest(EventLoader.loadDynamoDbEvent("events/markers-stale.json"), null);

            assertThat(response.getBatchItemFailures()).isEmpty();
            // Five stale days from 2026-03-12 keep the markers of 03-07 and later.
            assertThat(stub.requests())
                    .extracting(StepFunctionsStub.StartRequest::name)
                    .containsExactly(
                            ExecutionName.of(
                                    "silver", java.time.LocalDate.of(2026, 3, 7), "daily", "MARKER#cascade#bronze#old"),
                            ExecutionName.of(
                                    "silver", java.time.LocalDate.of(2026, 3, 7), "daily", "MARKER#rerun#rr-1"),
                            ExecutionName.of(
                                    "silver",
                                    java.time.LocalDate.of(2026, 3, 8),
                                    "daily",
                                    "MARKER#cascade#bronze#edge"),
                            ExecutionName.of(
                                    "silver", java.time.LocalDate.of(2026, 3, 11), "daily", "MARKER#manual#tomorrow"));
            assertThat(stub.requests())
                    .extracting(StepFunctionsStub.StartRequest::stateMachineArn)
                    .containsOnly("arn:aws:states:eu-west-1:123456789012:stateMachine:pipeline");
        }
    }
}
