package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;

/**
 * Post-run checks: a pipeline's {@code postRun} traits are evaluated after its job reports success
 * and before the day is COMPLETED. A zero-row check that fails records the day FAILED ({@code VERIFICATION}): alerted,
 * not cascaded, not retried unless {@code retry.retryableFailures} lists VERIFICATION, and {@code status} and
 * {@code why} name the failed check. A passing check completes and cascades.
 */
class PostRunChecksEndToEndTest extends EndToEnd {

    private static final LocalDate DAY = LocalDate.of(2026, 3, 3);

    @Override
    Instant clockStart() {
        return Instant.parse("2026-03-03T12:00:00Z");
    }

    /** A Glue pipeline whose post-run check wants rows written, and a downstream one that waits for its run log. */
    private void pipelines(String name, String retryable) {
        putRowsCheckedGluePipeline(name, "{maxAttempts: 2, backoffSeconds: 60" + retryable + "}");
        putPipeline("""
                name: %1$s-down
                archetype: batch-ingestion
                traits:
                  upstream-dependency: {evaluator: "builtin:upstream-run-log", config: {upstreamPipeline: %1$s}}
                  source-freshness: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: glue, jobName: %1$s-down-job, arguments: {"--fake-duration-seconds": "30"}}
                """.formatted(name));
    }

    @Test
    void aZeroRowPostRunCheckFailsTheDayAndBlocksItsCascade() {
        pipelines("pr-zero", "");
        sensor("pr-zero-rows", "{\"rows\": 0}");
        evaluate("pr-zero", DAY);
        JsonNode log = await(
                "pr-zero run log FAILED",
                () -> runLog("pr-zero", DAY, "daily"),
                l -> l != null && "FAILED".equals(l.path("status").asText()));
        awaitExecutionsDone("pr-zero", 1);
        assertThat(log.path("failureCategory").asText()).isEqualTo("VERIFICATION");
        assertThat(runs("pr-zero"))
                .as("not retried: VERIFICATION is not listed")
                .hasSize(1);
        assertThat(runs("pr-zero").getFirst().path("status").asText()).isEqualTo("FAILED");
        ExecutionListItem e = executions("pr-zero").getFirst();
        assertThat(visited(e.executionArn())).contains("LogCompleted").doesNotContain("CheckMonitoringExpired");
        assertThat(eventKinds("pr-zero")).contains("POST_RUN_CHECKED").doesNotContain("CASCADE_NOTIFIED");
        assertThat(eventsOf("pr-zero", "POST_RUN_CHECKED"))
                .anySatisfy(ev -> assertThat(ev.path("status").asText()).isEqualTo("FAILED"));
        assertThat(runs("pr-zero-down")).as("nothing cascaded").isEmpty();
        assertThat(alerts("pr-zero")).anySatisfy(a -> {
            assertThat(a.path("kind").asText()).isEqualTo("RUN_FAILED");
            assertThat(a.path("message").asText()).contains("VERIFICATION").contains("rows-written");
        });
        String why = why("pr-zero", DAY);
        System.out.printf("interlock why pr-zero --date %s:%n%s%n", DAY, why);
        assertThat(why).contains("VERIFICATION").contains("rows-written");
        String status = printed("status", "pr-zero", "--date", DAY.toString());
        assertThat(status).contains("FAILED").contains("rows-written");
        // The status answer (checked against the OpenAPI document) names the check that failed and why.
        JsonNode postRun = expect(200, "GET", "/pipelines/pr-zero/status?date=" + DAY, null, null)
                .at("/schedules/0/postRun");
        assertThat(postRun.path("verdict").asText()).isEqualTo("FAILED");
        assertThat(postRun.path("checks")).singleElement().satisfies(check -> {
            assertThat(check.path("name").asText()).isEqualTo("rows-written");
            assertThat(check.path("status").asText()).isEqualTo("FAIL");
            assertThat(check.path("required").asBoolean()).isTrue();
            assertThat(check.path("reason").asText()).contains("is 0, not gt 0");
        });
    }

    @Test
    void aPassingPostRunCheckCompletesAndCascades() {
        pipelines("pr-ok", "");
        sensor("pr-ok-rows", "{\"rows\": 42}");
        evaluate("pr-ok", DAY);
        await("pr-ok COMPLETED", () -> runLogStatus("pr-ok", DAY, "daily"), "COMPLETED"::equals);
        await("pr-ok cascaded", () -> eventKinds("pr-ok"), (List<String> k) -> k.contains("CASCADE_NOTIFIED"));
        assertThat(eventsOf("pr-ok", "POST_RUN_CHECKED"))
                .singleElement()
                .satisfies(ev -> assertThat(ev.path("status").asText()).isEqualTo("PASSED"));
    }

    @Test
    void aVerificationFailureIsRetriedWhenRetryableFailuresListIt() {
        pipelines("pr-retry", ", retryableFailures: [TRANSIENT, VERIFICATION]");
        sensor("pr-retry-rows", "{\"rows\": 0}");
        evaluate("pr-retry", DAY);
        await(
                "pr-retry retry scheduled",
                () -> eventKinds("pr-retry"),
                (List<String> k) -> k.contains("RETRY_SCHEDULED"));
        // The job's second run writes its rows: the retry's post-run check passes.
        sensor("pr-retry-rows", "{\"rows\": 7}");
        await("pr-retry COMPLETED", () -> runLogStatus("pr-retry", DAY, "daily"), "COMPLETED"::equals);
        assertThat(runs("pr-retry")).hasSize(2);
        await("pr-retry cascaded", () -> eventKinds("pr-retry"), (List<String> k) -> k.contains("CASCADE_NOTIFIED"));
        assertThat(alertKinds("pr-retry")).doesNotContain("RUN_FAILED");
    }
}
