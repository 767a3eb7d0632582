package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * Monitoring after completion does not hold the day's lock while it waits: an operator's rerun of a monitored day runs
 * at once (never deferred as "lock held"), and the monitoring of the run it replaced stops, saying why, instead of
 * comparing the new data against a stale baseline.
 */
class MonitoringOutsideTheLockEndToEndTest extends EndToEnd {

    private String pipeline(String name) {
        return """
                name: %s
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%s/jobs/%s"}
                schedules: [{name: daily, after: "00:01"}]
                monitoring: {enabled: true, duration: 8h}
                """.formatted(name, jobs.endpoint(), name);
    }

    /** The states an execution has visited; none while it has not started yet. */
    private List<String> visitedSoFar(String executionName) {
        try {
            return visited(arnOf(executionName));
        } catch (software.amazon.awssdk.services.sfn.model.ExecutionDoesNotExistException notStartedYet) {
            return List.of();
        }
    }

    @Test
    void aRerunWhileMonitoringWaitsRunsAtOnceAndEndsTheOldMonitoring() {
        LocalDate date = today();
        putPipeline(pipeline("mon-unlocked"));
        String monitoring = evaluate("mon-unlocked", date);
        await("mon-unlocked triggered", () -> jobs.triggersOf("mon-unlocked"), n -> n >= 1);
        await("mon-unlocked monitoring", () -> visitedSoFar(monitoring), v -> v.contains("MonitoringWait"));

        // While monitoring waits, the day's lock is free...
        assertThat(call("GET", "/pipelines/mon-unlocked/locks/daily/" + date, null, null)
                        .status())
                .isEqualTo(404);
        assertThat(status(arnOf(monitoring))).isEqualTo(ExecutionStatus.RUNNING);

        // ...so the operator's rerun runs the day at once: it is never deferred behind the monitoring execution.
        expect(
                202,
                "POST",
                "/pipelines/mon-unlocked/reruns",
                "application/json",
                "{\"date\":\"" + date + "\",\"reason\":\"operator asked\"}");
        await(
                "the rerun COMPLETED",
                () -> list("/pipelines/mon-unlocked/reruns")
                        .getFirst()
                        .path("status")
                        .asText(),
                "COMPLETED"::equals);
        assertThat(eventsOf("mon-unlocked", "MARKER_DEFERRED")).isEmpty();
        assertThat(jobs.triggersOf("mon-unlocked")).isEqualTo(2);

        // The replaced run's monitoring ends, naming the newer run, and never reports drift against its old baseline.
        assertThat(awaitDone(monitoring)).isEqualTo(ExecutionStatus.SUCCEEDED);
        List<String> superseded = eventsOf("mon-unlocked", "MONITORING_COMPLETED").stream()
                .filter(e -> e.path("status").asText().equals("SUPERSEDED"))
                .map(e -> e.path("message").asText())
                .toList();
        assertThat(superseded).singleElement().satisfies(m -> assertThat(m).contains("newer run"));
        assertThat(eventsOf("mon-unlocked", "MONITORING_DRIFT_DETECTED")).isEmpty();
        assertThat(runLogStatus("mon-unlocked", date, "daily")).isEqualTo("COMPLETED");
    }

    @Test
    void anEvaluationWhileMonitoringWaitsIsAnsweredAtOnce() {
        LocalDate date = today();
        putPipeline(pipeline("mon-evaluate"));
        String monitoring = evaluate("mon-evaluate", date);
        await("mon-evaluate monitoring", () -> visitedSoFar(monitoring), v -> v.contains("MonitoringWait"));

        // A new evaluation request for the completed day is not held back by the monitoring wait: it finds the day
        // completed and ends, while the monitoring goes on.
        String again = evaluate("mon-evaluate", date);
        assertThat(awaitDone(again)).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(visited(arnOf(again))).contains("CheckRunLog").doesNotContain("TriggerPipeline");
        assertThat(eventsOf("mon-evaluate", "MARKER_DEFERRED")).isEmpty();
        assertThat(status(arnOf(monitoring))).isEqualTo(ExecutionStatus.RUNNING);
        assertThat(jobs.triggersOf("mon-evaluate")).isEqualTo(1);
    }
}
