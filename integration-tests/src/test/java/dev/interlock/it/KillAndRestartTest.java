package dev.interlock.it;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The runtime killed while a job runs, then restarted on the same data directory. Executions live in the local
 * Step Functions service's memory and do not survive, so the run cannot resume; what must hold is that nothing in
 * the table is lost, the orphaned run is reported (STUCK_RUN), the dead execution's lock blocks its (pipeline,
 * schedule) until its TTL — longer than the execution timeout — and not a moment past it, and the day can then run.
 */
class KillAndRestartTest extends EndToEnd {

    @Override
    boolean sharedRuntime() {
        return false;
    }

    @Override
    double timeScale() {
        // The execution timeout (4 h) and the lock TTL (4.5 h) pass in about 5 and 6 real seconds.
        return 3000.0;
    }

    /** The first job outlives the first runtime; after the restart jobs are short so the day can complete. */
    private Duration jobDuration = Duration.ofHours(10);

    @Override
    Duration asyncJobDuration() {
        return jobDuration;
    }

    private JsonNode lockAction(String action, LocalDate date) {
        String payload = action.equals("acquireLock")
                ? "{\"owner\":\"e2e-probe\",\"executionTimeoutSeconds\":14400}" : "{\"owner\":\"e2e-probe\"}";
        return invokeOrchestrator("{\"action\":\"" + action + "\",\"pipelineId\":\"kr-job\",\"scheduleId\":\"daily\",\"date\":\"" + date
                + "\",\"executionName\":\"e2e-probe\",\"payload\":" + payload + "}");
    }

    private long stuckAlerts() {
        return alertKinds("kr-job").stream().filter("STUCK_RUN"::equals).count();
    }

    @Test
    void aRunKilledMidwayIsReportedItsLockExpiresAndNothingIsLost(@TempDir Path dataDir) throws Exception {
        startRuntime(dataDir);
        LocalDate date = today();
        String pipeline = """
                name: kr-job
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: airflow, url: "%s", dagId: kr_job}
                pollIntervalSeconds: 60
                pollLimit: 200
                """;
        putPipeline(pipeline.formatted(jobs.endpoint()));
        String first = evaluate("kr-job", date);
        JsonNode running = await("the job running", () -> runs("kr-job"),
                l -> l.size() == 1 && l.getFirst().path("status").asText().equals("RUNNING")).getFirst();
        List<String> eventsBefore = eventKinds("kr-job");
        assertThat(eventsBefore).contains("TRIGGER_FIRED");

        rt.close(); // killed mid-run: the execution is in WaitForRun
        jobDuration = Duration.ofMinutes(30);
        startRuntime(dataDir);

        // Nothing in the table is lost.
        assertThat(expect(200, "GET", "/pipelines/kr-job", null, null).path("name").asText()).isEqualTo("kr-job");
        assertThat(runs("kr-job")).singleElement().satisfies(r -> {
            assertThat(r.path("runId").asText()).isEqualTo(running.path("runId").asText());
            assertThat(r.path("status").asText()).isEqualTo("RUNNING");
        });
        assertThat(eventKinds("kr-job")).startsWith(eventsBefore.toArray(String[]::new));
        assertThat(runLogStatus("kr-job", date, "daily")).isNotEqualTo("COMPLETED");
        // The execution itself did not survive: the local Step Functions service keeps executions in memory.
        assertThat(executions("kr-job")).extracting(e -> e.name()).doesNotContain(first);

        // The dead execution still holds the lock: a new marker is skipped at the lock gate.
        JsonNode held = lockAction("acquireLock", date);
        assertThat(held.path("result").asText()).isEqualTo("skip");
        assertThat(held.path("reason").asText()).contains(first);
        String blocked = evaluate("kr-job", date);
        assertThat(awaitDone(blocked)).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(visited(arnOf(blocked))).containsExactly("InitDefaults", "CheckExclusion", "IsExcluded", "AcquireLock", "IsLockAcquired", "Done");

        // Past the execution timeout the watchdog reports the orphaned run, once; the lock (TTL > timeout) still holds.
        await("STUCK_RUN", () -> {
            rt.watchdogTick();
            return stuckAlerts();
        }, n -> n > 0);
        assertThat(lockAction("acquireLock", date).path("result").asText()).isEqualTo("skip");
        rt.watchdogTick();
        assertThat(stuckAlerts()).isEqualTo(1);

        // Past its TTL the lock is free again — and only then.
        JsonNode acquired = await("lock expired", () -> lockAction("acquireLock", date), r -> !r.path("result").asText().equals("skip"));
        assertThat(acquired.path("result").asText()).isEqualTo("proceed");
        assertThat(lockAction("releaseLock", date).path("payload").path("released").asBoolean()).isTrue();

        // The day runs to completion with a new marker.
        putPipeline(pipeline.formatted(jobs.endpoint()));
        String retry = evaluate("kr-job", date);
        assertThat(awaitDone(retry)).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(visited(arnOf(retry))).containsSubsequence("AcquireLock", "CheckRunLog", "ResolvePipeline", "TriggerPipeline", "LogCompleted", "Done");
        assertThat(runLogStatus("kr-job", date, "daily")).isEqualTo("COMPLETED");
        assertThat(jobs.triggersOf("kr_job")).isEqualTo(1);
        assertThat(runs("kr-job")).extracting(r -> r.path("status").asText()).containsExactlyInAnyOrder("RUNNING", "COMPLETED");
        assertThat(alertKinds("kr-job")).containsExactly("STUCK_RUN");
    }
}
