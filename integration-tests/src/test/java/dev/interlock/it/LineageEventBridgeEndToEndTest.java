package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.local.runtime.RuntimeOptions;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * OpenLineage out through EventBridge: a deployment with an event bus and no HTTP receiver puts every RunEvent on the
 * bus as one event (source {@code interlock.openlineage}, detail-type {@code OpenLineage RunEvent}) whose detail is the
 * RunEvent itself, valid against the OpenLineage spec's JSON schema. The local runtime's bus plays the deployment's.
 */
class LineageEventBridgeEndToEndTest extends EndToEnd {

    private static final LocalDate DAY = LocalDate.of(2026, 3, 4);
    private static final String NAMESPACE = "e2e-lineage-bus";
    private static final String BUS = "interlock-lineage";

    @Override
    Instant clockStart() {
        return Instant.parse("2026-03-04T12:00:00Z");
    }

    @Override
    RuntimeOptions runtimeOptions(Path dataDir) {
        return super.runtimeOptions(dataDir)
                .withEnvironment(Map.of("OPENLINEAGE_EVENT_BUS", BUS, "OPENLINEAGE_NAMESPACE", NAMESPACE));
    }

    private void gluePipeline(String name, String arguments, String limits) {
        putPipeline("""
                name: %s
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: glue, jobName: %s-job, arguments: {%s}}
                pollIntervalSeconds: 60
                %s
                retry: {maxAttempts: 1}
                """.formatted(name, name, arguments, limits));
    }

    /** The OpenLineage events on the local bus for job {@code name}, oldest first. */
    private List<JsonNode> busEvents(String name) {
        return rt.eventBus().events().stream()
                .filter(e -> "interlock.openlineage".equals(e.path("source").asText()))
                .filter(e ->
                        name.equals(e.path("detail").path("job").path("name").asText()))
                .toList();
    }

    /** The bus events of job {@code name} once one of type {@code terminal} arrived; each detail schema-checked. */
    private List<JsonNode> awaitBus(String name, String terminal) {
        await(
                name + " put " + terminal + " on the bus",
                () -> busEvents(name).stream()
                        .map(e -> e.path("detail").path("eventType").asText())
                        .toList(),
                types -> types.contains(terminal));
        List<JsonNode> events = busEvents(name);
        for (JsonNode event : events) {
            assertThat(event.path("detail-type").asText()).isEqualTo("OpenLineage RunEvent");
            assertThat(LineageReceiver.RUN_EVENT.validate(event.path("detail")))
                    .as("detail valid against the OpenLineage schema: %s", event.path("detail"))
                    .isEmpty();
            assertThat(event.path("detail").path("job").path("namespace").asText())
                    .isEqualTo(NAMESPACE);
        }
        return events;
    }

    private static List<String> types(List<JsonNode> events) {
        return events.stream()
                .map(e -> e.path("detail").path("eventType").asText())
                .distinct()
                .toList();
    }

    @Test
    void aCompletedRunIsPutOnTheBusStartedThenCompleted() {
        gluePipeline("olb-done", "\"--fake-duration-seconds\": \"60\"", "maxJobDurationSeconds: 3600");
        evaluate("olb-done", DAY);
        await("olb-done COMPLETED", () -> runLogStatus("olb-done", DAY, "daily"), "COMPLETED"::equals);

        List<JsonNode> events = awaitBus("olb-done", "COMPLETE");
        assertThat(types(events)).containsExactly("START", "COMPLETE");
        String runId = runs("olb-done").getFirst().path("runId").asText();
        assertThat(events)
                .allSatisfy(e -> assertThat(
                                e.path("detail").path("run").path("runId").asText())
                        .isEqualTo(runId));
        assertThat(events.getFirst()
                        .path("detail")
                        .path("run")
                        .path("facets")
                        .path("interlock_readiness")
                        .path("verdict")
                        .asText())
                .isEqualTo("READY");
    }

    @Test
    void aJobInterlockStopsAtItsMaximumDurationIsPutOnTheBusStartedThenAborted() {
        gluePipeline("olb-stopped", "\"--fake-duration-seconds\": \"7200\"", "maxJobDurationSeconds: 300");
        evaluate("olb-stopped", DAY);
        await("olb-stopped FAILED", () -> runLogStatus("olb-stopped", DAY, "daily"), "FAILED"::equals);

        List<JsonNode> events = awaitBus("olb-stopped", "ABORT");
        assertThat(types(events)).containsExactly("START", "ABORT");
    }
}
