package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.local.demo.FakeJobServer;
import dev.interlock.local.runtime.LocalRuntime;
import dev.interlock.model.contract.OrchestratorAction;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * The runtime stopped while a job runs, then restarted on the same data directory, as on AWS where an execution
 * outlives any one process: nothing in the table is lost, the execution is still there with its history and continues
 * where it stood (polling the job it had started, which went on running outside the runtime), the job is not started
 * a second time, the day completes and the lock is released — no STUCK_RUN.
 */
class KillAndRestartTest extends EndToEnd {

    @Override
    boolean sharedRuntime() {
        return false;
    }

    @Override
    double timeScale() {
        // A 60 s poll takes half a real second; the 4-hour execution timeout two real minutes, beyond any restart here.
        return 120.0;
    }

    @Override
    Duration asyncJobDuration() {
        return Duration.ofMinutes(30);
    }

    /** The job server is outside the runtime: it keeps running across the restart, with the job it was given. */
    @Override
    FakeJobServer jobServer(LocalRuntime runtime, FakeJobServer previous) throws Exception {
        return previous != null ? previous : super.jobServer(runtime, null);
    }

    private JsonNode lockAction(OrchestratorAction action, LocalDate date) {
        String payload = action == OrchestratorAction.ACQUIRE_LOCK
                ? "{\"owner\":\"e2e-probe\",\"executionTimeoutSeconds\":14400,\"executionStartTime\":\""
                        + rt.clock().instant() + "\",\"replay\":false}"
                : "{\"owner\":\"e2e-probe\"}";
        return invokeOrchestrator("{\"action\":\"" + action.wireName()
                + "\",\"pipelineId\":\"kr-job\",\"scheduleId\":\"daily\",\"date\":\"" + date
                + "\",\"executionName\":\"e2e-probe\",\"payload\":" + payload + "}");
    }

    @Test
    void aRunInterruptedByARestartContinuesAndCompletes(@TempDir Path dataDir) throws Exception {
        startRuntime(dataDir);
        LocalDate date = today();
        putPipeline("""
                name: kr-job
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: airflow, url: "%s", dagId: kr_job}
                pollIntervalSeconds: 60
                pollLimit: 200
                """.formatted(jobs.endpoint()));
        String execution = evaluate("kr-job", date);
        JsonNode running = await(
                        "the job running",
                        () -> runs("kr-job"),
                        l -> l.size() == 1
                                && l.getFirst().path("status").asText().equals("RUNNING"))
                .getFirst();
        List<String> eventsBefore = eventKinds("kr-job");
        assertThat(eventsBefore).contains("TRIGGER_FIRED");

        rt.close(); // stopped mid-run: the execution polls the job
        startRuntime(dataDir);

        // Nothing in the table is lost, and the execution is still there, with the history it had.
        assertThat(expect(200, "GET", "/pipelines/kr-job", null, null)
                        .path("name")
                        .asText())
                .isEqualTo("kr-job");
        assertThat(eventKinds("kr-job")).startsWith(eventsBefore.toArray(String[]::new));
        assertThat(executions("kr-job")).extracting(e -> e.name()).containsExactly(execution);
        assertThat(visited(arnOf(execution)))
                .containsSubsequence("AcquireLock", "ResolvePipeline", "TriggerPipeline", "WaitForRun");

        // It continues where it stood and completes the day with the job it had started.
        assertThat(awaitDone(execution)).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(visited(arnOf(execution)))
                .containsSubsequence(
                        "TriggerPipeline",
                        "WaitForRun",
                        "PollRunStatus",
                        "LogCompleted",
                        "ReleaseLockAndSucceed",
                        "Done");
        assertThat(runLogStatus("kr-job", date, "daily")).isEqualTo("COMPLETED");
        assertThat(runs("kr-job")).singleElement().satisfies(r -> {
            assertThat(r.path("runId").asText()).isEqualTo(running.path("runId").asText());
            assertThat(r.path("status").asText()).isEqualTo("COMPLETED");
        });
        assertThat(jobs.triggersOf("kr_job")).isEqualTo(1);

        // The lock is free, and the watchdog has no orphaned run to report.
        assertThat(lockAction(OrchestratorAction.ACQUIRE_LOCK, date)
                        .path("result")
                        .asText())
                .isEqualTo("proceed");
        assertThat(lockAction(OrchestratorAction.RELEASE_LOCK, date)
                        .path("payload")
                        .path("released")
                        .asBoolean())
                .isTrue();
        rt.watchdogTick();
        assertThat(alertKinds("kr-job")).doesNotContain("STUCK_RUN", "EXECUTION_ERROR");
    }
}
