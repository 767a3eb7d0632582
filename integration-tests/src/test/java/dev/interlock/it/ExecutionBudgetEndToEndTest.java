package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * A retry loop whose backoffs would outlast the execution's four hours: the execution hands the next attempt to a
 * new one instead of running into States.Timeout with its run RUNNING and its lock held. The day's four scaled hours
 * take about a minute at the fixture's 300×; a faster clock would shrink the execution's 15-minute safety margin to
 * less real time than a loaded machine's Lambda calls take.
 */
class ExecutionBudgetEndToEndTest extends EndToEnd {

    /** Every DAG run of this class fails after 1000 s. */
    @Override
    Duration asyncJobDuration() {
        return Duration.ofSeconds(1000);
    }

    @Test
    void aRetryLoopWhoseBackoffsOutlastTheExecutionHandsOverInsteadOfTimingOut() {
        LocalDate date = today();
        jobs.failRunsOf("eb_slow", true);
        putPipeline("""
                name: eb-slow
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: airflow, url: "%s", dagId: eb_slow}
                pollIntervalSeconds: 30
                pollLimit: 40
                maxJobDurationSeconds: 1800
                retry: {maxAttempts: 4, backoffSeconds: 3600, backoffMultiplier: 1}
                """.formatted(jobs.endpoint()));
        evaluate("eb-slow", date);

        await(
                "four attempts failed",
                () -> runLog("eb-slow", date, "daily"),
                l -> l.path("retryHistory").size() == 4,
                Duration.ofMinutes(5));
        List<ExecutionListItem> executions =
                awaitExecutionsDone("eb-slow", executions("eb-slow").size());
        assertThat(executions).extracting(ExecutionListItem::status).doesNotContain(ExecutionStatus.TIMED_OUT);
        assertThat(executions.getLast().status()).isEqualTo(ExecutionStatus.FAILED);
        assertThat(executions.subList(0, executions.size() - 1))
                .isNotEmpty()
                .allSatisfy(e -> assertThat(e.status()).isEqualTo(ExecutionStatus.SUCCEEDED));
        JsonNode log = runLog("eb-slow", date, "daily");
        assertThat(log.path("status").asText()).isEqualTo("FAILED");
        assertThat(log.path("attemptNumber").asInt()).isEqualTo(4);
        assertThat(runs("eb-slow"))
                .extracting(r -> r.path("status").asText())
                .containsOnly("FAILED")
                .hasSize(4);
        assertThat(jobs.triggersOf("eb_slow")).isEqualTo(4);
        assertThat(call("GET", "/pipelines/eb-slow/locks/daily/" + date, null, null)
                        .status())
                .as("lock released")
                .isEqualTo(404);
        List<JsonNode> handedOver = eventsOf("eb-slow", "EXECUTION_HANDED_OVER");
        assertThat(handedOver).hasSize(executions.size() - 1);
        assertThat(handedOver
                        .getFirst()
                        .path("details")
                        .path("successorExecution")
                        .asText())
                .isEqualTo(executions.get(1).name());
        assertThat(alertKinds("eb-slow")).containsExactly("RETRY_EXHAUSTED");
    }
}
