package dev.interlock.streamrouter;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.tests.EventLoader;
import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.log.StructuredLog;
import dev.interlock.model.json.InterlockJson;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class MarkerRouterLogTest {

    @Test
    void everyRecordLeavesOneStructuredLineWithItsContext() throws Exception {
        Clock clock = Clock.fixed(Instant.parse("2026-03-10T09:00:00Z"), ZoneOffset.UTC);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        StructuredLog log =
                new StructuredLog("stream-router", new PrintStream(bytes, true, StandardCharsets.UTF_8), clock);
        DynamodbEvent event = EventLoader.loadDynamoDbEvent("events/markers-stale.json");
        try (StepFunctionsStub stub = new StepFunctionsStub();
                var client = stub.client()) {
            MarkerRouter router = new MarkerRouter(
                    new ExecutionStarter(() -> client, "arn:aws:states:us-east-1:1:stateMachine:p"),
                    new RouterSettings("arn:aws:states:us-east-1:1:stateMachine:p", 2),
                    clock,
                    log);

            router.route(event.getRecords());
        }

        List<JsonNode> lines = Arrays.stream(
                        bytes.toString(StandardCharsets.UTF_8).split("\n"))
                .map(line -> InterlockJson.tree(line))
                .toList();
        assertThat(lines)
                .extracting(l -> l.get("message").asText())
                .containsExactly("stale marker skipped", "execution started", "execution started", "execution started");
        JsonNode stale = lines.getFirst();
        assertThat(stale.get("pipelineId").asText()).isEqualTo("silver");
        assertThat(stale.get("scheduleId").asText()).isEqualTo("daily");
        assertThat(stale.get("date").asText()).isEqualTo("2026-03-07");
        assertThat(stale.get("executionName").asText()).startsWith("silver_2026-03-07_daily_");
        assertThat(stale.get("sequenceNumber").asText()).isEqualTo("1");
        assertThat(stale.get("level").asText()).isEqualTo("INFO");
    }
}
