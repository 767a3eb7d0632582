package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;

/**
 * Jobs that lie: a Glue run that ends {@code SUCCEEDED} with an error message, or whose driver log
 * ({@code /aws-glue/jobs/error}, read through the real CloudWatch Logs client's {@code FilterLogEvents} against the
 * local endpoint) holds ERROR or FATAL lines, is recorded FAILED ({@code FALSE_SUCCESS}): alerted, not retried, not
 * cascaded, and {@code interlock why} says so. The same run with the check turned off completes and cascades. An
 * Airflow DAG run that the REST API reports {@code success} while some of its task instances failed (the fake
 * Airflow's {@code taskInstances} endpoint, played by the conf key {@code --fake-failed-tasks}) is the same lie.
 */
class FalseSuccessEndToEndTest extends EndToEnd {

    private static final LocalDate DAY = LocalDate.of(2026, 3, 3);

    @Override
    Instant clockStart() {
        return Instant.parse("2026-03-03T12:00:00Z");
    }

    /** A Glue pipeline (retry TRANSIENT and TIMEOUT twice) and a downstream one that waits for its run log. */
    private void pipelines(String name, String arguments, String check) {
        pair(
                name,
                "{type: glue, jobName: %s-job, arguments: {\"--fake-duration-seconds\": \"90\", %s}%s}"
                        .formatted(name, arguments, check),
                "{type: glue, jobName: %s-down-job, arguments: {\"--fake-duration-seconds\": \"30\"}}".formatted(name));
    }

    /** An Airflow pipeline whose DAG run plays {@code failedTasks}, and the same downstream pipeline. */
    private void airflowPipelines(String name, String failedTasks, String check) {
        String dag = name.replace('-', '_');
        pair(
                name,
                "{type: airflow, url: \"%s\", dagId: %s_dag, conf: {\"--fake-failed-tasks\": \"%s\"}%s}"
                        .formatted(jobs.endpoint(), dag, failedTasks, check),
                "{type: airflow, url: \"%s\", dagId: %s_down_dag}".formatted(jobs.endpoint(), dag));
    }

    /** {@code name} with {@code trigger}, and {@code name-down} (with {@code downTrigger}) waiting for its run log. */
    private void pair(String name, String trigger, String downTrigger) {
        putPipeline("""
                name: %s
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: %s
                pollIntervalSeconds: 60
                maxJobDurationSeconds: 3600
                retry: {maxAttempts: 2, backoffSeconds: 60}
                """.formatted(name, trigger));
        putPipeline("""
                name: %s-down
                archetype: batch-ingestion
                traits:
                  upstream-dependency: {evaluator: "builtin:upstream-run-log", config: {upstreamPipeline: %s}}
                  source-freshness: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: %s
                """.formatted(name, name, downTrigger));
    }

    private void assertFalseSuccess(String name, String reason) {
        JsonNode log = await(
                name + " run log FAILED",
                () -> runLog(name, DAY, "daily"),
                l -> l != null && "FAILED".equals(l.path("status").asText()));
        awaitExecutionsDone(name, 1);
        assertThat(log.path("failureCategory").asText()).isEqualTo("FALSE_SUCCESS");
        assertThat(runs(name)).as("not retried").hasSize(1);
        assertThat(runs(name).getFirst().path("status").asText()).isEqualTo("FAILED");
        ExecutionListItem e = executions(name).getFirst();
        assertThat(visited(e.executionArn()))
                .contains("LogRunFailed")
                .doesNotContain("NotifyDownstream", "LogCompleted");
        assertThat(eventKinds(name)).doesNotContain("CASCADE_NOTIFIED");
        assertThat(runs(name + "-down")).as("nothing cascaded").isEmpty();
        assertThat(alerts(name)).anySatisfy(a -> {
            assertThat(a.path("kind").asText()).isEqualTo("RUN_FAILED");
            assertThat(a.path("message").asText()).contains("FALSE_SUCCESS").contains(reason);
        });
        String why = why(name, DAY);
        System.out.printf("interlock why %s --date %s:%n%s%n", name, DAY, why);
        assertThat(why).contains("FALSE_SUCCESS").contains(reason);
        String status = printed("status", name, "--date", DAY.toString());
        assertThat(status).contains("FAILED");
    }

    @Test
    void aGlueRunWhoseDriverLogHoldsErrorsIsAFalseSuccess() {
        pipelines("lie-log", "\"--fake-log-errors\": \"ERROR Executor: Task 3 failed: java.io.IOException\"", "");
        evaluate("lie-log", DAY);
        assertFalseSuccess("lie-log", "ERROR Executor: Task 3 failed");
    }

    @Test
    void aGlueRunThatSucceededWithAnErrorMessageIsAFalseSuccess() {
        pipelines("lie-msg", "\"--fake-error-message\": \"partition 7 skipped\"", "");
        evaluate("lie-msg", DAY);
        assertFalseSuccess("lie-msg", "partition 7 skipped");
    }

    @Test
    void withTheLogCheckOffTheSameRunCompletesAndCascades() {
        pipelines("lie-off", "\"--fake-log-errors\": \"ERROR Executor: Task 3 failed\"", ", errorLogCheck: false");
        evaluate("lie-off", DAY);
        await("lie-off COMPLETED", () -> runLogStatus("lie-off", DAY, "daily"), "COMPLETED"::equals);
        await("lie-off cascaded", () -> eventKinds("lie-off"), (List<String> k) -> k.contains("CASCADE_NOTIFIED"));
    }

    @Test
    void aCustomPatternDecidesWhichLinesCount() {
        // The default (?ERROR ?FATAL) would find nothing here; the pipeline's own pattern does.
        pipelines(
                "lie-custom",
                "\"--fake-log-errors\": \"Traceback (most recent call last)\"",
                ", errorLogPattern: \"Traceback\"");
        evaluate("lie-custom", DAY);
        assertFalseSuccess("lie-custom", "Traceback");
    }

    @Test
    void anAirflowDagRunThatSucceededWithFailedTasksIsAFalseSuccess() {
        airflowPipelines("lie-dag", "load_orders, publish_orders:upstream_failed", "");
        evaluate("lie-dag", DAY);
        assertFalseSuccess("lie-dag", "load_orders");
        assertThat(why("lie-dag", DAY)).contains("publish_orders").contains("upstream_failed");
        assertThat(jobs.taskInstancePolls())
                .as("the task instances were asked for")
                .anySatisfy(r -> assertThat(r.job()).isEqualTo("lie_dag_dag"));
    }

    @Test
    void withTheTaskCheckOffTheAirflowRunCompletesAndCascades() {
        airflowPipelines("lie-dag-off", "load_orders", ", failedTaskCheck: false");
        evaluate("lie-dag-off", DAY);
        await("lie-dag-off COMPLETED", () -> runLogStatus("lie-dag-off", DAY, "daily"), "COMPLETED"::equals);
        await(
                "lie-dag-off cascaded",
                () -> eventKinds("lie-dag-off"),
                (List<String> k) -> k.contains("CASCADE_NOTIFIED"));
        assertThat(jobs.taskInstancePolls())
                .as("the check is off: nothing asked")
                .noneSatisfy(r -> assertThat(r.job()).isEqualTo("lie_dag_off_dag"));
    }
}
