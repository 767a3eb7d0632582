package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.LocalDate;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * What uses up {@code retry.maxAttempts}: only a job that was started and failed. Waiting for data (NOT READY) and
 * running out of validation time (VALIDATION_EXHAUSTED) are not attempts, so late data still runs on the next marker.
 */
class AttemptsEndToEndTest extends EndToEnd {

    /**
     * A pipeline gated on its sensor whose window opens at 23:59: yesterday's window is long open, today's is not, so
     * the sensor writes below (which start the evaluation of open days that read the sensor) leave today alone and
     * the scenario is yesterday's alone.
     */
    private String sensorGated(String name, String retry) {
        return """
                name: %s
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:sensor-threshold", config: {sensor: %s-src, field: count, op: gte, value: 1000}}
                trigger: {type: http, url: "%s/jobs/%s"}
                retry: %s
                sla: {validationTimeout: "1m"}
                schedules: [{name: daily, after: "23:59"}]
                """.formatted(name, name, jobs.endpoint(), name, retry);
    }

    private static List<String> texts(JsonNode array, String field) {
        return StreamSupport.stream(array.spliterator(), false)
                .map(n -> n.path(field).asText())
                .toList();
    }

    @Test
    void dataArrivingAfterTheValidationDeadlineStillRunsWhenTheNextMarkerComes() {
        // Yesterday's validation deadline (00:01) has passed: the first evaluation is NOT READY and out of time at
        // once.
        LocalDate date = today().minusDays(1);
        putPipeline(sensorGated("late-data", "{maxAttempts: 1}"));
        sensor("late-data-src", "{\"count\":10}");

        String first = evaluate("late-data", date);
        assertThat(awaitDone(first)).isEqualTo(ExecutionStatus.FAILED);
        assertThat(visited(arnOf(first))).contains("LogValidationExhausted").doesNotContain("TriggerPipeline");
        JsonNode exhausted = runLog("late-data", date, "daily");
        assertThat(exhausted.path("status").asText()).isEqualTo("FAILED");
        assertThat(exhausted.path("failureCategory").asText()).isEqualTo("VALIDATION_EXHAUSTED");
        // The missed deadline is an SLA alert, not an attempt.
        assertThat(exhausted.path("attemptNumber").asInt()).isZero();
        assertThat(alertKinds("late-data")).containsExactly("VALIDATION_EXHAUSTED");

        // The data lands late and the producer's next marker arrives: the day runs, though maxAttempts is 1.
        sensor("late-data-src", "{\"count\":1500}");
        String second = evaluate("late-data", date);

        assertThat(awaitDone(second)).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(visited(arnOf(second))).containsSubsequence("CheckRunLog", "TriggerPipeline", "LogCompleted");
        assertThat(jobs.triggersOf("late-data")).isEqualTo(1);
        JsonNode completed = runLog("late-data", date, "daily");
        assertThat(completed.path("status").asText()).isEqualTo("COMPLETED");
        assertThat(texts(completed.path("retryHistory"), "status")).containsExactly("FAILED", "COMPLETED");
        assertThat(texts(completed.path("retryHistory"), "failureCategory"))
                .first()
                .isEqualTo("VALIDATION_EXHAUSTED");
        assertThat(runs("late-data"))
                .extracting(r -> r.path("status").asText())
                .containsExactlyInAnyOrder("FAILED", "COMPLETED");
        assertThat(alertKinds("late-data")).containsExactly("VALIDATION_EXHAUSTED");
    }

    @Test
    void aJobThatWasStartedAndFailedDoesUseUpTheAttempt() {
        LocalDate date = today().minusDays(1);
        putPipeline(sensorGated("real-failure", "{maxAttempts: 1}"));
        sensor("real-failure-src", "{\"count\":1500}");
        jobs.failNext("real-failure", 1, 500);

        String first = evaluate("real-failure", date);
        assertThat(awaitDone(first)).isEqualTo(ExecutionStatus.FAILED);
        JsonNode failed = runLog("real-failure", date, "daily");
        assertThat(failed.path("status").asText()).isEqualTo("FAILED");
        assertThat(failed.path("attemptNumber").asInt()).isEqualTo(1);

        String second = evaluate("real-failure", date);

        assertThat(awaitDone(second)).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(visited(arnOf(second))).contains("CheckRunLog").doesNotContain("ResolvePipeline", "TriggerPipeline");
        assertThat(runLog("real-failure", date, "daily").path("status").asText())
                .isEqualTo("FAILED");
        assertThat(jobs.triggersOf("real-failure")).isZero();
    }
}
