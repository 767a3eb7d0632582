package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.local.runtime.RuntimeOptions;
import dev.interlock.model.runtime.Environment;
import dev.interlock.runtime.aws.AwsClients;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * OpenLineage out: every job Interlock starts is reported to a Marquez-compatible receiver ({@code POST
 * /api/v1/lineage}) as a {@code START} and then a {@code COMPLETE}, {@code FAIL} or {@code ABORT} RunEvent, under the deployment's
 * namespace, the pipeline's name and the run's id, with the readiness verdict and the upstream runs it waited for as
 * run facets. Every event received must be valid against the OpenLineage spec's JSON schema.
 */
class LineageEndToEndTest extends EndToEnd {

    private static final LocalDate DAY = LocalDate.of(2026, 3, 3);
    private static final String NAMESPACE = "e2e-lineage";

    private final LineageReceiver receiver = LineageReceiver.start();

    @Override
    Instant clockStart() {
        return Instant.parse("2026-03-03T12:00:00Z");
    }

    @Override
    RuntimeOptions runtimeOptions(Path dataDir) {
        return super.runtimeOptions(dataDir)
                .withEnvironment(Map.of("OPENLINEAGE_URL", receiver.url(), "OPENLINEAGE_NAMESPACE", NAMESPACE));
    }

    @AfterAll
    void stopReceiver() {
        receiver.close();
    }

    private void gluePipeline(String name, String arguments, String upstreamTrait) {
        putPipeline("""
                name: %s
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: %s
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: glue, jobName: %s-job, arguments: {"--fake-duration-seconds": "60"%s}}
                pollIntervalSeconds: 60
                maxJobDurationSeconds: 3600
                retry: {maxAttempts: 1}
                """.formatted(name, upstreamTrait, name, arguments));
    }

    /** The lineage events of job {@code name} once its run has ended ({@code terminal}), each type once. */
    private List<JsonNode> awaitLineage(String name, String terminal) {
        await(
                name + " reported " + terminal,
                () -> receiver.eventsOf(name).stream()
                        .map(e -> e.path("eventType").asText())
                        .toList(),
                types -> types.contains(terminal));
        assertThat(receiver.invalid())
                .as("every event valid against the OpenLineage schema")
                .isEmpty();
        return receiver.eventsOf(name);
    }

    private static List<String> types(List<JsonNode> events) {
        return events.stream().map(e -> e.path("eventType").asText()).distinct().toList();
    }

    private String runId(String pipeline) {
        return runs(pipeline).getFirst().path("runId").asText();
    }

    @Test
    void aRunThatCompletesIsReportedStartedThenCompletedAndItsDownstreamNamesTheUpstreamRun() {
        gluePipeline("ol-up", "", "{evaluator: \"builtin:always-pass\"}");
        gluePipeline("ol-down", "", "{evaluator: \"builtin:upstream-run-log\", config: {upstreamPipeline: ol-up}}");
        evaluate("ol-up", DAY);
        await("ol-up COMPLETED", () -> runLogStatus("ol-up", DAY, "daily"), "COMPLETED"::equals);

        List<JsonNode> up = awaitLineage("ol-up", "COMPLETE");
        assertThat(types(up)).containsExactly("START", "COMPLETE");
        String upRun = runId("ol-up");
        for (JsonNode event : up) {
            assertThat(event.path("run").path("runId").asText()).isEqualTo(upRun);
            assertThat(event.path("job").path("namespace").asText()).isEqualTo(NAMESPACE);
            assertThat(event.path("job").path("name").asText()).isEqualTo("ol-up");
            JsonNode readiness = event.path("run").path("facets").path("interlock_readiness");
            assertThat(readiness.path("verdict").asText()).isEqualTo("READY");
            assertThat(readiness.path("date").asText()).isEqualTo(DAY.toString());
            assertThat(readiness.path("schedule").asText()).isEqualTo("daily");
        }

        // The cascade starts the downstream, whose readiness waited for the upstream's run.
        List<JsonNode> down = awaitLineage("ol-down", "COMPLETE");
        assertThat(types(down)).containsExactly("START", "COMPLETE");
        JsonNode start = down.getFirst();
        assertThat(start.path("run").path("runId").asText()).isEqualTo(runId("ol-down"));
        JsonNode upstream =
                start.path("run").path("facets").path("jobDependencies").path("upstream");
        assertThat(upstream).hasSize(1);
        assertThat(upstream.get(0).path("job").path("namespace").asText()).isEqualTo(NAMESPACE);
        assertThat(upstream.get(0).path("job").path("name").asText()).isEqualTo("ol-up");
        assertThat(upstream.get(0).path("run").path("runId").asText()).isEqualTo(upRun);
    }

    @Test
    void aFailingJobIsReportedStartedThenFailedWithItsMessage() {
        gluePipeline("ol-fail", ", \"--fake-outcome\": FAILED", "{evaluator: \"builtin:always-pass\"}");
        evaluate("ol-fail", DAY);
        await("ol-fail FAILED", () -> runLogStatus("ol-fail", DAY, "daily"), "FAILED"::equals);

        List<JsonNode> events = awaitLineage("ol-fail", "FAIL");
        assertThat(types(events)).containsExactly("START", "FAIL");
        assertThat(events)
                .allSatisfy(
                        e -> assertThat(e.path("run").path("runId").asText()).isEqualTo(runId("ol-fail")));
        JsonNode fail = events.stream()
                .filter(e -> "FAIL".equals(e.path("eventType").asText()))
                .findFirst()
                .orElseThrow();
        assertThat(fail.path("run")
                        .path("facets")
                        .path("errorMessage")
                        .path("message")
                        .asText())
                .isNotBlank();
        assertThat(fail.path("run")
                        .path("facets")
                        .path("interlock_readiness")
                        .path("failureCategory")
                        .asText())
                .isNotBlank();
    }

    @Test
    void aRunWhosePostRunCheckFailsIsReportedFailedAndNeverComplete() {
        putRowsCheckedGluePipeline("ol-unverified", "{maxAttempts: 1}");
        sensor("ol-unverified-rows", "{\"rows\": 0}");
        evaluate("ol-unverified", DAY);
        await("ol-unverified FAILED", () -> runLogStatus("ol-unverified", DAY, "daily"), "FAILED"::equals);
        awaitExecutionsDone("ol-unverified", 1);

        // The job said SUCCEEDED, but the day is FAILED (VERIFICATION): a receiver must never take the run for
        // complete.
        List<JsonNode> events = awaitLineage("ol-unverified", "FAIL");
        assertThat(types(events)).containsExactly("START", "FAIL");
        JsonNode fail = events.stream()
                .filter(e -> "FAIL".equals(e.path("eventType").asText()))
                .findFirst()
                .orElseThrow();
        assertThat(fail.path("run").path("runId").asText()).isEqualTo(runId("ol-unverified"));
        JsonNode facets = fail.path("run").path("facets");
        assertThat(facets.path("interlock_readiness").path("failureCategory").asText())
                .isEqualTo("VERIFICATION");
        assertThat(facets.path("errorMessage").path("message").asText())
                .contains("rows-written")
                .contains("is 0, not gt 0");
    }

    @Test
    void aRunWhosePostRunCheckPassesIsReportedCompleteOnlyAfterTheCheck() {
        putRowsCheckedGluePipeline("ol-verified", "{maxAttempts: 1}");
        sensor("ol-verified-rows", "{\"rows\": 42}");
        evaluate("ol-verified", DAY);
        await("ol-verified COMPLETED", () -> runLogStatus("ol-verified", DAY, "daily"), "COMPLETED"::equals);

        List<JsonNode> events = awaitLineage("ol-verified", "COMPLETE");
        assertThat(types(events)).containsExactly("START", "COMPLETE");
        Instant checked = Instant.parse(eventsOf("ol-verified", "POST_RUN_CHECKED")
                .getFirst()
                .path("timestamp")
                .asText());
        JsonNode complete = events.stream()
                .filter(e -> "COMPLETE".equals(e.path("eventType").asText()))
                .findFirst()
                .orElseThrow();
        assertThat(Instant.parse(complete.path("eventTime").asText()))
                .as("COMPLETE is the day recorded after its checks passed, not the job's own end")
                .isAfterOrEqualTo(checked);
    }

    @Test
    void aJobInterlockStopsAtItsMaximumDurationIsReportedStartedThenAborted() {
        putPipeline("""
                name: ol-stopped
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: glue, jobName: ol-stopped-job, arguments: {"--fake-duration-seconds": "7200"}}
                pollIntervalSeconds: 60
                maxJobDurationSeconds: 300
                retry: {maxAttempts: 1}
                """);
        evaluate("ol-stopped", DAY);
        await("ol-stopped FAILED", () -> runLogStatus("ol-stopped", DAY, "daily"), "FAILED"::equals);

        List<JsonNode> events = awaitLineage("ol-stopped", "ABORT");
        assertThat(types(events)).as("a stopped job is aborted, not failed").containsExactly("START", "ABORT");
        JsonNode abort = events.stream()
                .filter(e -> "ABORT".equals(e.path("eventType").asText()))
                .findFirst()
                .orElseThrow();
        assertThat(abort.path("run").path("runId").asText()).isEqualTo(runId("ol-stopped"));
        assertThat(abort.path("run")
                        .path("facets")
                        .path("errorMessage")
                        .path("message")
                        .asText())
                .contains("maxJobDurationSeconds");
    }

    @Test
    void aJobAnOperatorStopsIsReportedStartedThenAborted() {
        putPipeline("""
                name: ol-operator-stop
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: glue, jobName: ol-operator-stop-job, arguments: {"--fake-duration-seconds": "7200"}}
                pollIntervalSeconds: 60
                maxJobDurationSeconds: 7000
                retry: {maxAttempts: 1}
                """);
        evaluate("ol-operator-stop", DAY);
        String jobRunId = await(
                "ol-operator-stop's job started",
                () -> runs("ol-operator-stop").stream()
                        .map(r -> r.path("metadata").path("glue_job_run_id").asText())
                        .filter(id -> !id.isBlank())
                        .findFirst()
                        .orElse(""),
                id -> !id.isBlank());

        // Someone stops the job in Glue (the console's "Stop job run"), not Interlock.
        try (AwsClients operator = new AwsClients(Environment.of(
                Map.of("INTERLOCK_ENDPOINT_GLUE", rt.lambdaEndpoint().toString())))) {
            operator.glue()
                    .batchStopJobRun(b -> b.jobName("ol-operator-stop-job").jobRunIds(jobRunId));
        }
        await("ol-operator-stop FAILED", () -> runLogStatus("ol-operator-stop", DAY, "daily"), "FAILED"::equals);

        List<JsonNode> events = awaitLineage("ol-operator-stop", "ABORT");
        assertThat(types(events)).as("a stopped job is aborted, not failed").containsExactly("START", "ABORT");
        assertThat(runs("ol-operator-stop")
                        .getFirst()
                        .path("metadata")
                        .path("interlock_job_stopped_as")
                        .asText())
                .isEqualTo("STOPPED");
    }
}
