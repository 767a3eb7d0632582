package dev.interlock.streamrouter;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.amazonaws.services.lambda.runtime.tests.EventLoader;
import com.sun.net.httpserver.HttpServer;
import dev.interlock.model.marker.ExecutionName;
import dev.interlock.model.runtime.Environment;
import dev.interlock.wiring.Deps;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class StreamRouterDepsTest {

    @Test
    void theDepsWiredHandlerStartsExecutionsOnTheConfiguredStateMachineAndEndpoint() throws Exception {
        // DynamoDB on loopback: every GetItem finds nothing (no pipeline is paused); the targets asked are kept.
        List<String> tableCalls = new CopyOnWriteArrayList<>();
        HttpServer table = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        table.createContext("/", exchange -> {
            try (exchange) {
                String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                tableCalls.add(exchange.getRequestHeaders().getFirst("X-Amz-Target") + " " + body);
                byte[] answer = "{}".getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/x-amz-json-1.0");
                exchange.sendResponseHeaders(200, answer.length);
                exchange.getResponseBody().write(answer);
            }
        });
        table.start();
        try (StepFunctionsStub stub = new StepFunctionsStub();
                Deps deps = new Deps(
                        Environment.of(Map.of(
                                "TABLE_NAME", "interlock",
                                "STATE_MACHINE_ARN", "arn:aws:states:eu-west-1:123456789012:stateMachine:pipeline",
                                "STALE_MARKER_DAYS", "5",
                                "AWS_REGION", "eu-west-1",
                                "INTERLOCK_ENDPOINT_STEPFUNCTIONS",
                                        stub.endpoint().toString(),
                                "INTERLOCK_ENDPOINT_DYNAMODB",
                                        "http://127.0.0.1:" + table.getAddress().getPort())),
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
            // Before starting, the router read the pipeline's pause, once for the batch.
            assertThat(tableCalls.stream().filter(c -> c.contains(".GetItem")))
                    .singleElement()
                    .asString()
                    .startsWith("DynamoDB_20120810.GetItem")
                    .contains("PAUSE#silver");
        } finally {
            table.stop(0);
        }
    }
}
