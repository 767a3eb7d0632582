package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.local.demo.FakeJobServer;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * Asynchronous jobs that outlive their poll window: followed, never started a second time beside themselves, and
 * cancelled (then retried) only once they ran longer than the pipeline's maximum job duration.
 */
class JobFollowingEndToEndTest extends EndToEnd {

    /** Three and a half poll windows of the pipelines below (4 polls of 30 s). */
    @Override
    Duration asyncJobDuration() {
        return Duration.ofSeconds(420);
    }

    private String airflow(String name, String dag, String extra) {
        return """
                name: %s
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: airflow, url: "%s", dagId: %s}
                pollIntervalSeconds: 30
                pollLimit: 4
                %s
                """.formatted(name, jobs.endpoint(), dag, extra);
    }

    @Test
    void anAirflowDagRunLastingThreePollWindowsIsStartedOnceAndItsRunLogEndsCompleted() {
        LocalDate date = today();
        putPipeline(airflow("jf-long", "jf_long", "retry: {maxAttempts: 3, backoffSeconds: 30}"));
        String name = evaluate("jf-long", date);

        assertThat(awaitDone(name)).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(jobs.triggersOf("jf_long")).isEqualTo(1);
        JsonNode log = runLog("jf-long", date, "daily");
        assertThat(log.path("status").asText()).isEqualTo("COMPLETED");
        assertThat(log.path("retryHistory"))
                .extracting(h -> h.path("status").asText())
                .containsExactly("COMPLETED");
        assertThat(runs("jf-long")).extracting(r -> r.path("status").asText()).containsExactly("COMPLETED");
        // First reported as overdue (past its poll window), then recorded as the success it was.
        List<JsonNode> overdue = eventsOf("jf-long", "RUN_OVERDUE");
        assertThat(overdue).hasSize(1);
        assertThat(overdue.getFirst().path("status").asText()).isEqualTo("TIMEOUT");
        assertThat(eventKinds("jf-long")).doesNotContain("RUN_CANCEL_REQUESTED", "RETRY_SCHEDULED");
        assertThat(visited(arnOf(name))).doesNotContain("LogRunFailed", "PlanRetry");
        assertThat(alerts("jf-long")).isEmpty();
    }

    @Test
    void aDagRunPastItsMaximumDurationIsCancelledBeforeTheRetryStartsAnother() {
        LocalDate date = today();
        jobs.durationOf("jf_stuck", Duration.ofHours(10));
        putPipeline(airflow(
                "jf-stuck", "jf_stuck", "maxJobDurationSeconds: 300\nretry: {maxAttempts: 2, backoffSeconds: 30}"));
        String name = evaluate("jf-stuck", date);

        assertThat(awaitDone(name)).isEqualTo(ExecutionStatus.FAILED);
        List<FakeJobServer.Received> starts =
                jobs.received().stream().filter(r -> r.job().equals("jf_stuck")).toList();
        List<FakeJobServer.Cancellation> cancels = jobs.cancellations().stream()
                .filter(c -> c.dag().equals("jf_stuck"))
                .toList();
        assertThat(starts).hasSize(2);
        assertThat(cancels).hasSize(2);
        assertThat(cancels.getFirst().at())
                .as("the first run is cancelled before the second starts")
                .isBeforeOrEqualTo(starts.get(1).at());
        assertThat(Duration.between(starts.getFirst().at(), cancels.getFirst().at()))
                .as("and only past its maximum")
                .isGreaterThanOrEqualTo(Duration.ofSeconds(300));
        JsonNode log = runLog("jf-stuck", date, "daily");
        assertThat(log.path("status").asText()).isEqualTo("FAILED");
        assertThat(log.path("retryHistory"))
                .extracting(h -> h.path("failureCategory").asText())
                .containsExactly("TIMEOUT", "TIMEOUT");
        assertThat(eventsOf("jf-stuck", "RUN_CANCEL_REQUESTED")).hasSize(2);
        assertThat(runs("jf-stuck")).extracting(r -> r.path("status").asText()).containsExactly("FAILED", "FAILED");
        assertThat(alertKinds("jf-stuck")).containsExactly("RETRY_EXHAUSTED");
    }
}
