package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad input through the API and the CLI: 4xx with field paths, nothing written; the examples register cleanly. */
class BadInputTest extends EndToEnd {

    private static List<String> paths(JsonNode problem) {
        return StreamSupport.stream(problem.path("errors").spliterator(), false)
                .map(e -> e.path("path").asText())
                .toList();
    }

    private void assertProblem(Response r, int status) {
        assertThat(r.status()).as(r.raw()).isEqualTo(status);
        assertThat(r.contentType()).startsWith("application/problem+json");
        assertThat(r.body().path("status").asInt()).isEqualTo(status);
    }

    private List<String> pipelineNames() {
        return list("/pipelines").stream().map(p -> p.path("name").asText()).toList();
    }

    @Test
    void anInvalidPipelineIsRefusedWithEveryErrorAndNothingIsWritten() {
        Response r = call("PUT", "/pipelines/bad-one", "application/yaml", """
                name: bad-one
                archetype: no-such-archetype
                trigger: {type: http, url: "not a url", method: FETCH}
                retry: {maxAttempts: -1, backoffMultiplier: 99}
                sla: {timezone: Mars/Olympus, evaluationDeadline: "25:99"}
                schedules: [{name: h06, after: "6 o'clock"}, {name: h06}]
                exclusions: {days: [caturday], dates: [2026-13-45]}
                monitoring: {enabled: true}
                pollLimit: 0
                """);
        assertProblem(r, 400);
        assertThat(paths(r.body()))
                .contains(
                        "$.archetype",
                        "$.trigger.url",
                        "$.trigger.method",
                        "$.retry.maxAttempts",
                        "$.retry.backoffMultiplier",
                        "$.sla.timezone",
                        "$.sla.evaluationDeadline",
                        "$.schedules[0].after",
                        "$.schedules[1].name",
                        "$.exclusions.days[0]",
                        "$.exclusions.dates[0]",
                        "$.monitoring.duration",
                        "$.pollLimit");
        assertThat(call("GET", "/pipelines/bad-one", null, null).status()).isEqualTo(404);
        assertThat(pipelineNames()).doesNotContain("bad-one");
    }

    @Test
    void malformedAndMismatchedDocumentsAreRefused() {
        assertProblem(call("PUT", "/pipelines/bad-two", "application/yaml", "name: bad-two\ntrigger: [unclosed"), 400);
        Response mismatch = call(
                "PUT",
                "/pipelines/bad-three",
                "application/json",
                "{\"name\":\"other-name\",\"archetype\":\"batch-ingestion\",\"trigger\":{\"type\":\"http\",\"url\":\"http://127.0.0.1:1/x\"}}");
        assertProblem(mismatch, 400);
        assertThat(paths(mismatch.body())).contains("$.name");
        Response noTrigger = call(
                "PUT",
                "/pipelines/bad-four",
                "application/json",
                "{\"name\":\"bad-four\",\"archetype\":\"batch-ingestion\"}");
        assertProblem(noTrigger, 400);
        assertThat(paths(noTrigger.body())).contains("$.trigger");
        Response badId = call("PUT", "/pipelines/Bad_ID!", "application/json", "{}");
        assertProblem(badId, 400);
        assertThat(paths(badId.body())).contains("path.id");
        assertThat(pipelineNames()).doesNotContain("bad-two", "bad-three", "other-name", "bad-four");
    }

    @Test
    void badEvaluationRerunAndSensorRequestsAreRefusedAndWriteNoMarker() {
        putPipeline("""
                name: bad-target
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%s/jobs/bad-target"}
                """.formatted(jobs.endpoint()));

        assertProblem(call("POST", "/pipelines/bad-missing/evaluations", "application/json", "{}"), 404);
        Response unknownField =
                call("POST", "/pipelines/bad-target/evaluations", "application/json", "{\"when\":\"now\"}");
        assertProblem(unknownField, 400);
        assertThat(paths(unknownField.body())).contains("$.when");
        Response badDate =
                call("POST", "/pipelines/bad-target/evaluations", "application/json", "{\"date\":\"2026-02-30\"}");
        assertProblem(badDate, 400);
        assertThat(paths(badDate.body())).contains("$.date");
        Response badSchedule =
                call("POST", "/pipelines/bad-target/evaluations", "application/json", "{\"scheduleId\":\"h99\"}");
        assertProblem(badSchedule, 400);
        assertThat(paths(badSchedule.body())).contains("$.scheduleId");
        Response noReason =
                call("POST", "/pipelines/bad-target/reruns", "application/json", "{\"date\":\"" + today() + "\"}");
        assertProblem(noReason, 400);
        assertThat(paths(noReason.body())).contains("$.reason");
        Response sensor = call("PUT", "/sensors/bad-sensor", "application/json", "[1,2,3]");
        assertProblem(sensor, 400);
        Response nonFinite = call("PUT", "/sensors/bad-sensor", "application/json", "{\"count\":1e999}");
        assertProblem(nonFinite, 400);
        assertThat(paths(nonFinite.body())).contains("$.count");

        // Nothing reached the stream: no execution, no run, no event, no trigger.
        assertThat(executions("bad-target")).isEmpty();
        assertThat(runs("bad-target")).isEmpty();
        assertThat(events("bad-target")).isEmpty();
        assertThat(jobs.triggersOf("bad-target")).isZero();
        assertThat(call("GET", "/pipelines/bad-missing", null, null).status()).isEqualTo(404);
    }

    @Test
    void theCliReportsRejectedDocumentsWithTheirPathsAndRegistersNothingForThem(@TempDir Path dir) throws Exception {
        Path bad = dir.resolve("bad-cli.yaml");
        Files.writeString(bad, """
                name: bad-cli
                archetype: batch-ingestion
                trigger: {type: airflow, url: "http://127.0.0.1:1"}
                retry: {backoffSeconds: -5}
                """);
        Cli result = cli(
                "apply", "-f", bad.toString(), "--endpoint", rt.apiEndpoint().toString(), "--no-sigv4");
        assertThat(result.code()).as(result.out() + result.err()).isEqualTo(1);
        assertThat(result.err()).contains("bad-cli", "$.trigger.dagId", "$.retry.backoffSeconds");
        assertThat(pipelineNames()).doesNotContain("bad-cli");
    }

    @Test
    void applyingTheExamplesFolderRegistersEverything() {
        Cli result = cli(
                "apply",
                "-f",
                Path.of("../examples").toString(),
                "--endpoint",
                rt.apiEndpoint().toString(),
                "--no-sigv4");
        assertThat(result.code()).as(result.out() + result.err()).isZero();
        // stderr is shared with the in-process runtime (e.g. DynamoDB Local's logging): look only for the CLI's own
        // complaints.
        assertThat(result.err()).doesNotContain("invalid", "refused", "no such file", "syntax error");
        assertThat(pipelineNames())
                .contains(
                        "bronze-orders",
                        "silver-orders",
                        "gold-orders",
                        "clickstream-sessions",
                        "clickstream-hourly-kpis");
        assertThat(result.out()).contains("calendar us-holidays-2026 created", "pipeline gold-orders created");
        // The cascade edges of the examples are indexed: gold waits on silver, silver on bronze.
        assertThat(expect(200, "GET", "/pipelines/gold-orders", null, null).toString())
                .contains("silver-orders");
    }
}
