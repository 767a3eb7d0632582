package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/** The machine's retry loop: transient failures retried with backoff, permanent ones not, exhaustion alerted. */
class RetryEndToEndTest extends EndToEnd {

    private String httpPipeline(String name, String retry) {
        return """
                name: %s
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%s/jobs/%s"}
                retry: %s
                """.formatted(name, jobs.endpoint(), name, retry);
    }

    private static List<String> statuses(JsonNode history) {
        return java.util.stream.StreamSupport.stream(history.spliterator(), false)
                .map(h -> h.path("status").asText())
                .toList();
    }

    @Test
    void transientTriggerFailuresAreRetriedUntilTheThirdAttemptSucceeds() {
        LocalDate date = today();
        // A backoff long against the product clock (300 s is 1 s real): the retry loop's first run-log check must
        // land inside it however slowly logResult and planRetry answer under load, or the wait is rightly skipped.
        putPipeline(httpPipeline("rt-transient", "{maxAttempts: 3, backoffSeconds: 300, backoffMultiplier: 2}"));
        jobs.failNext("rt-transient", 2, 500);
        String name = evaluate("rt-transient", date);

        assertThat(awaitDone(name)).isEqualTo(ExecutionStatus.SUCCEEDED);
        List<String> states = visited(arnOf(name));
        assertThat(states.stream().filter("TriggerPipeline"::equals)).hasSize(3);
        assertThat(states.stream().filter("WaitForRetryWindow"::equals)).hasSize(2);
        JsonNode log = runLog("rt-transient", date, "daily");
        assertThat(log.path("status").asText()).isEqualTo("COMPLETED");
        assertThat(log.path("attemptNumber").asInt()).isEqualTo(2);
        assertThat(statuses(log.path("retryHistory"))).containsExactly("FAILED", "FAILED", "COMPLETED");
        assertThat(log.path("retryHistory").get(0).path("attempt").asInt()).isEqualTo(1);
        assertThat(log.path("retryHistory").get(1).path("attempt").asInt()).isEqualTo(2);
        assertThat(log.path("retryHistory").get(1).path("failureCategory").asText())
                .isEqualTo("TRANSIENT");
        // Each attempt is its own run: two failed, one completed.
        assertThat(runs("rt-transient"))
                .extracting(r -> r.path("status").asText())
                .containsExactlyInAnyOrder("FAILED", "FAILED", "COMPLETED");
        assertThat(jobs.triggersOf("rt-transient")).isEqualTo(1);
        // The backoff doubles: 300 s after the first failure, 600 s after the second.
        List<JsonNode> retries = eventsOf("rt-transient", "RETRY_SCHEDULED");
        assertThat(retries)
                .extracting(e -> e.path("message").asText())
                .containsExactly("retry after 300 s", "retry after 600 s");
        // TRIGGER_FAILED is deduplicated per (pipeline, date, schedule).
        assertThat(alertKinds("rt-transient")).containsExactly("TRIGGER_FAILED");
    }

    @Test
    void aPermanentFailureIsNotRetried() {
        LocalDate date = today();
        putPipeline(httpPipeline("rt-permanent", "{maxAttempts: 3, backoffSeconds: 30}"));
        jobs.failNext("rt-permanent", 1, 404);
        String name = evaluate("rt-permanent", date);

        assertThat(awaitDone(name)).isEqualTo(ExecutionStatus.FAILED);
        assertThat(visited(arnOf(name)))
                .containsSubsequence(
                        "TriggerPipeline",
                        "IsTriggerSuccessful",
                        "LogTriggerFailed",
                        "ShouldRetry",
                        "ReleaseLockAndFail",
                        "PipelineFailed")
                .doesNotContain("WaitForRetryWindow", "LogCompleted");
        JsonNode log = runLog("rt-permanent", date, "daily");
        assertThat(log.path("status").asText()).isEqualTo("FAILED");
        assertThat(log.path("failureCategory").asText()).isEqualTo("PERMANENT");
        assertThat(log.path("attemptNumber").asInt()).isEqualTo(1);
        assertThat(statuses(log.path("retryHistory"))).containsExactly("FAILED");
        assertThat(runs("rt-permanent"))
                .extracting(r -> r.path("status").asText())
                .containsExactly("FAILED");
        assertThat(jobs.triggersOf("rt-permanent")).isZero();
        assertThat(alertKinds("rt-permanent")).containsExactlyInAnyOrder("TRIGGER_FAILED", "RUN_FAILED");

        // A later marker the same day does not try again: the failure is not retryable.
        String again = evaluate("rt-permanent", date);
        assertThat(awaitDone(again)).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(visited(arnOf(again)))
                .contains("CheckRunLog", "ReleaseLockAndSucceed")
                .doesNotContain("ResolvePipeline");
        assertThat(runs("rt-permanent")).hasSize(1);
    }

    @Test
    void exhaustedRetriesAlertAndFailTheExecution() {
        LocalDate date = today();
        putPipeline(httpPipeline("rt-exhausted", "{maxAttempts: 2, backoffSeconds: 30}"));
        jobs.failNext("rt-exhausted", 10, 500);
        String name = evaluate("rt-exhausted", date);

        assertThat(awaitDone(name)).isEqualTo(ExecutionStatus.FAILED);
        List<String> states = visited(arnOf(name));
        assertThat(states.stream().filter("TriggerPipeline"::equals)).hasSize(2);
        assertThat(states).endsWith("ShouldRetry", "ReleaseLockAndFail", "PipelineFailed");
        JsonNode log = runLog("rt-exhausted", date, "daily");
        assertThat(log.path("status").asText()).isEqualTo("FAILED");
        assertThat(log.path("attemptNumber").asInt()).isEqualTo(2);
        assertThat(statuses(log.path("retryHistory"))).containsExactly("FAILED", "FAILED");
        assertThat(runs("rt-exhausted"))
                .extracting(r -> r.path("status").asText())
                .containsExactly("FAILED", "FAILED");
        assertThat(jobs.triggersOf("rt-exhausted")).isZero();
        assertThat(alertKinds("rt-exhausted")).containsExactlyInAnyOrder("TRIGGER_FAILED", "RETRY_EXHAUSTED");
        assertThat(eventKinds("rt-exhausted")).contains("RETRY_EXHAUSTED");

        // No attempts left: a new marker the same day is skipped at the run-log gate.
        String again = evaluate("rt-exhausted", date);
        assertThat(awaitDone(again)).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(visited(arnOf(again)))
                .contains("CheckRunLog", "ReleaseLockAndSucceed")
                .doesNotContain("ResolvePipeline");
        assertThat(runs("rt-exhausted")).hasSize(2);
    }

    @Test
    void aRunTheRunCheckerReportsFailedIsRetried() {
        LocalDate date = today();
        // A long backoff (10 scaled minutes, about 2 s) leaves time to repair the DAG before the second attempt.
        putPipeline("""
                name: rt-runfail
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: airflow, url: "%s", dagId: rt_runfail}
                retry: {maxAttempts: 3, backoffSeconds: 600}
                pollIntervalSeconds: 30
                """.formatted(jobs.endpoint()));
        jobs.failRunsOf("rt_runfail", true);
        String name = evaluate("rt-runfail", date);

        await("first run failed", () -> runLogStatus("rt-runfail", date, "daily"), "FAILED"::equals);
        jobs.failRunsOf("rt_runfail", false);
        assertThat(awaitDone(name)).isEqualTo(ExecutionStatus.SUCCEEDED);

        assertThat(visited(arnOf(name)))
                .containsSubsequence(
                        "TriggerPipeline",
                        "WaitForRun",
                        "PollRunStatus",
                        "EvaluatePollResult",
                        "LogRunFailed",
                        "PlanRetry",
                        "ShouldRetry",
                        "CheckRunLog",
                        "WaitForRetryWindow",
                        "CheckRunLog",
                        "TriggerPipeline",
                        "PollRunStatus",
                        "EvaluatePollResult",
                        "CheckCompletionSLA",
                        "LogCompleted",
                        "Done");
        JsonNode log = runLog("rt-runfail", date, "daily");
        assertThat(log.path("status").asText()).isEqualTo("COMPLETED");
        assertThat(statuses(log.path("retryHistory"))).containsExactly("FAILED", "COMPLETED");
        assertThat(log.path("retryHistory").get(0).path("failureCategory").asText())
                .isEqualTo("TRANSIENT");
        assertThat(jobs.triggersOf("rt_runfail")).isEqualTo(2);
        assertThat(runs("rt-runfail"))
                .extracting(r -> r.path("status").asText())
                .containsExactlyInAnyOrder("FAILED", "COMPLETED");
        assertThat(alertKinds("rt-runfail")).doesNotContain("RETRY_EXHAUSTED", "EXECUTION_ERROR");
    }
}
