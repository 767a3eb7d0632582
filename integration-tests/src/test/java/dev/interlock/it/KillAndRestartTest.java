package dev.interlock.it;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The runtime killed while a job runs, then restarted on the same data directory. Executions live in the local
 * Step Functions service's memory and do not survive, so the run cannot resume; what must hold is that nothing in
 * the table is lost, the orphaned run is reported (STUCK_RUN), the dead execution's lock blocks its (pipeline,
 * schedule, date) until its TTL — longer than the execution timeout — and not a moment past it, and a marker that met
 * it meanwhile waits (handing itself to new executions as their budgets run out) and runs the day once it is free.
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
                ? "{\"owner\":\"e2e-probe\",\"executionTimeoutSeconds\":14400,\"executionStartTime\":\"" + rt.clock().instant()
                        + "\",\"replay\":false}"
                : "{\"owner\":\"e2e-probe\"}";
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

        // The dead execution still holds the lock, for longer than the execution timeout: a new marker waits at the
        // lock gate, it is neither run nor dropped.
        JsonNode lock = expect(200, "GET", "/pipelines/kr-job/locks/daily/" + date, null, null);
        assertThat(lock.path("owner").asText()).isEqualTo(first);
        Instant expiresAt = Instant.parse(lock.path("expiresAt").asText());
        assertThat(Duration.between(Instant.parse(lock.path("acquiredAt").asText()), expiresAt)).as("TTL = timeout + 30 min")
                .isBetween(Duration.ofSeconds(14400 + 1800), Duration.ofSeconds(14400 + 1801));
        JsonNode held = lockAction("acquireLock", date);
        assertThat(held.path("result").asText()).isEqualTo("skip");
        assertThat(held.path("reason").asText()).contains(first);
        assertThat(held.path("payload").path("waitSeconds").asLong()).isPositive();
        String blocked = evaluate("kr-job", date);
        await("the new marker waits for the lock", () -> {
            try {
                return visited(arnOf(blocked));
            } catch (software.amazon.awssdk.services.sfn.model.ExecutionDoesNotExistException notStartedYet) {
                return List.<String>of();
            }
        }, v -> v.contains("WaitForLock"));
        assertThat(visited(arnOf(blocked))).doesNotContain("CheckRunLog");

        // Past the execution timeout the watchdog reports the orphaned run, once.
        await("STUCK_RUN", () -> {
            rt.watchdogTick();
            return stuckAlerts();
        }, n -> n > 0);
        rt.watchdogTick();
        assertThat(stuckAlerts()).isEqualTo(1);

        // Past its TTL the lock is free again — and only then: the waiting marker (handed from execution to execution
        // as each one's wait budget ran out) takes it and runs the day, with no new marker needed.
        await("the day ran once the dead lock expired", () -> runLogStatus("kr-job", date, "daily"), "COMPLETED"::equals);
        List<String> waiters = awaitExecutionsDone("kr-job", executions("kr-job").size()).stream().map(e -> e.name()).toList();
        assertThat(waiters).hasSizeGreaterThan(2).contains(blocked);
        assertThat(eventsOf("kr-job", "EXECUTION_HANDED_OVER")).hasSize(waiters.size() - 1);
        assertThat(jobs.triggersOf("kr_job")).isEqualTo(1);
        assertThat(runs("kr-job")).extracting(r -> r.path("status").asText()).containsExactlyInAnyOrder("RUNNING", "COMPLETED");
        JsonNode completed = runs("kr-job").stream().filter(r -> r.path("status").asText().equals("COMPLETED")).findFirst().orElseThrow();
        assertThat(Instant.parse(completed.path("createdAt").asText())).as("not before the dead lock expired").isAfterOrEqualTo(expiresAt);
        assertThat(alertKinds("kr-job")).containsExactly("STUCK_RUN");
    }
}
