package dev.interlock.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.jobs.RunCheck;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.keys.LockKey;
import dev.interlock.model.marker.MarkerSource;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.model.trait.TraitStatus;
import dev.interlock.model.trait.TraitVerdict;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A job that ends after the execution that waited for it is gone: its job-state event (or the watchdog's callback
 * check) records the day as the execution would have — run log, completion SLA check, cascade — once; a job that
 * succeeds after Interlock gave up on it is recorded COMPLETED, late; a live execution records its own.
 */
class JobEndAfterExecutionTest {

    private static final String JOB_RUN = "jr_0077";
    private static final LockKey LOCK = new LockKey(Fixture.PIPELINE, "daily", Fixture.DATE);
    private final Fixture f = new Fixture();

    private String waitingGlueRun(String retry) {
        f.provider
                .pipelines()
                .put(dev.interlock.testing.Documents.read(
                        "name: orders\narchetype: batch-ingestion\ntrigger: {type: glue, jobName: orders-etl}\n"
                                + "maxJobDurationSeconds: 600\nretry: " + retry + "\n",
                        dev.interlock.model.pipeline.PipelineConfig.class));
        f.register("gold", "traits:\n  upstream-dependency:\n    config: {upstreamPipeline: orders}\n");
        assertThat(f.provider.locks().acquire(LOCK, Fixture.EXECUTION, Duration.ofHours(4)))
                .isTrue();
        String runId = f.resolve();
        RunState pending = f.provider.runs().get(runId).orElseThrow();
        RunState triggering = pending.moveTo(RunStatus.TRIGGERING, f.clock.instant());
        f.provider.runs().compareAndSwap(pending.version(), triggering);
        f.provider
                .runs()
                .compareAndSwap(
                        triggering.version(),
                        triggering
                                .moveTo(RunStatus.RUNNING, f.clock.instant())
                                .withMetadata(Map.of("glue_job_name", "orders-etl", "glue_job_run_id", JOB_RUN)));
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("taskToken", "token-1");
        payload.put("triggerType", "glue");
        payload.put("metadata", Map.of("glue_job_name", "orders-etl", "glue_job_run_id", JOB_RUN));
        f.call(f.request(OrchestratorAction.AWAIT_JOB_COMPLETION, runId, payload));
        return runId;
    }

    /** The operator aborts the execution: its wait ends without a callback and its lock is released. */
    private void abortExecution() {
        f.callbacks.endWithoutCallback("token-1");
        f.provider.locks().releaseHeldBy(LOCK, Fixture.EXECUTION);
    }

    private JsonNode glueEvent(String state) {
        return f.glueEvent("orders-etl", JOB_RUN, state);
    }

    /** Events other than JOB_WAIT_ALREADY_ENDED, which a repeated job end leaves to say it changed nothing. */
    private int eventCount() {
        return (int) f.events(Fixture.PIPELINE).stream()
                .filter(e -> e.kind() != EventKind.JOB_WAIT_ALREADY_ENDED)
                .count();
    }

    @Test
    void theEventOfAJobWhoseExecutionWasAbortedCompletesTheDayOnceWithRunLogAndCascade() {
        String runId = waitingGlueRun("{maxAttempts: 1}");
        abortExecution();

        glueEvent("SUCCEEDED");

        assertThat(f.runLog().orElseThrow().status()).isEqualTo(RunLogStatus.COMPLETED);
        assertThat(f.runLog().orElseThrow().runId()).isEqualTo(runId);
        assertThat(f.provider.runs().get(runId).orElseThrow().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(f.provider.cascade().markers("gold", Fixture.DATE))
                .singleElement()
                .satisfies(m -> {
                    assertThat(m.source()).isEqualTo(MarkerSource.CASCADE);
                    assertThat(m.originRunId()).isEqualTo(runId);
                });
        assertThat(f.events(EventKind.JOB_END_RECORDED))
                .singleElement()
                .satisfies(e -> assertThat(e.details()).containsEntry("learnedBy", "callback"));
        assertThat(f.events(EventKind.CASCADE_NOTIFIED)).hasSize(1);
        assertThat(f.events(EventKind.JOB_WAIT_ALREADY_ENDED)).isEmpty();

        int before = eventCount();
        glueEvent("SUCCEEDED");
        assertThat(eventCount()).as("a duplicate event does nothing more").isEqualTo(before);
        assertThat(f.provider.cascade().markers("gold", Fixture.DATE)).hasSize(1);
    }

    @Test
    void aLiveExecutionWhoseWaitAlreadyEndedRecordsTheEndItself() {
        String runId = waitingGlueRun("{maxAttempts: 1}");
        // The wait timed out; the execution is on its fallback poll and still holds the lock.
        f.callbacks.endWithoutCallback("token-1");

        glueEvent("SUCCEEDED");

        assertThat(f.provider.runs().get(runId).orElseThrow().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(f.runLog()).as("the execution logs it").isEmpty();
        assertThat(f.events(EventKind.JOB_END_RECORDED)).isEmpty();
        assertThat(f.events(EventKind.JOB_WAIT_ALREADY_ENDED)).hasSize(1);
    }

    @Test
    void aFailedJobOfAnAbortedExecutionIsLoggedAndItsRetryHandedToASuccessor() {
        String runId = waitingGlueRun("{maxAttempts: 2, backoffSeconds: 60}");
        abortExecution();

        glueEvent("FAILED");

        assertThat(f.runLog().orElseThrow().status()).isEqualTo(RunLogStatus.FAILED);
        assertThat(f.runLog().orElseThrow().failureCategory()).isEqualTo(FailureCategory.TRANSIENT);
        assertThat(f.provider.runs().get(runId).orElseThrow().status()).isEqualTo(RunStatus.FAILED);
        assertThat(f.events(EventKind.RETRY_SCHEDULED)).hasSize(1);
        assertThat(f.provider.cascade().markers(Fixture.PIPELINE, Fixture.DATE))
                .as("the retry's successor")
                .singleElement()
                .satisfies(m -> assertThat(m.source()).isEqualTo(MarkerSource.RETRY));
        assertThat(f.provider.cascade().markers("gold", Fixture.DATE)).isEmpty();
    }

    @Test
    void aJobStoppedPastItsMaximumFailsTimeoutByItsEvent() {
        String runId = waitingGlueRun("{maxAttempts: 2}");
        RunState run = f.provider.runs().get(runId).orElseThrow();
        f.provider
                .runs()
                .compareAndSwap(
                        run.version(),
                        run.nextVersion(run.updatedAt())
                                .withMetadata(Map.of(
                                        dev.interlock.model.run.MaximumDuration.CANCEL_REQUESTED_AT,
                                        "2026-03-02T10:10:00.000Z")));

        glueEvent("STOPPED");

        RunState stopped = f.provider.runs().get(runId).orElseThrow();
        assertThat(stopped.failureCategory()).isEqualTo(FailureCategory.TIMEOUT);
        assertThat(stopped.failureMessage()).contains("after running longer than maxJobDurationSeconds");
        assertThat(f.callbacks.sent)
                .singleElement()
                .satisfies(s -> assertThat(s.kind()).isEqualTo("failure"));
    }

    @Test
    void aJobThatSucceedsAfterTheDayWasLoggedFailedIsRecordedCompletedLateWithAnAlertAndCascades() {
        String runId = waitingGlueRun("{maxAttempts: 1}");
        giveUp(runId);
        assertThat(f.runLog().orElseThrow().status()).isEqualTo(RunLogStatus.FAILED);

        glueEvent("SUCCEEDED");

        assertThat(f.runLog().orElseThrow().status()).isEqualTo(RunLogStatus.COMPLETED);
        assertThat(f.provider.runs().get(runId).orElseThrow().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(f.events(EventKind.JOB_SUCCEEDED_LATE)).hasSize(1);
        assertThat(f.alerts.kinds()).contains("JOB_SUCCEEDED_LATE");
        assertThat(f.provider.cascade().markers("gold", Fixture.DATE)).hasSize(1);

        int before = eventCount();
        glueEvent("SUCCEEDED");
        assertThat(eventCount()).isEqualTo(before);
    }

    /** Interlock gives up on the job: the run and the day FAILED TIMEOUT, the execution ended. */
    private void giveUp(String runId) {
        f.callbacks.endWithoutCallback("token-1");
        f.call(f.request(
                OrchestratorAction.LOG_RESULT,
                runId,
                Map.of("status", "FAILED", "failureCategory", "TIMEOUT", "message", "gave up")));
        f.provider.locks().releaseHeldBy(LOCK, Fixture.EXECUTION);
    }

    /** Interlock gave up on the job of a run whose pipeline checks rows after its job: the day FAILED TIMEOUT. */
    private String givenUpRunWithAPostRunCheck() {
        String runId = waitingGlueRun("{maxAttempts: 1}\n" + """
                postRun:
                  - name: rows-written
                    evaluator: "builtin:sensor-threshold"
                    config: {sensor: orders-rows, field: rows, op: gt, value: 0}
                """);
        giveUp(runId);
        return runId;
    }

    @Test
    void aJobThatSucceedsLateButFailsItsPostRunCheckLeavesTheDayFailedVerificationAndCascadesNothing() {
        String runId = givenUpRunWithAPostRunCheck();
        f.postRunAnswer = check ->
                new TraitVerdict(check.traitType(), TraitStatus.FAIL, null, "no rows written", null, check.required());

        glueEvent("SUCCEEDED");

        assertThat(f.runLog().orElseThrow().status()).isEqualTo(RunLogStatus.FAILED);
        RunState run = f.provider.runs().get(runId).orElseThrow();
        assertThat(run.status()).isEqualTo(RunStatus.FAILED);
        assertThat(run.failureCategory()).isEqualTo(FailureCategory.VERIFICATION);
        assertThat(run.dayCompletedAt()).isNull();
        assertThat(run.failureMessage()).contains("rows-written").contains("no rows written");
        assertThat(f.events(EventKind.POST_RUN_CHECKED))
                .singleElement()
                .satisfies(e -> assertThat(e.status()).isEqualTo("FAILED"));
        assertThat(f.events(EventKind.JOB_SUCCEEDED_LATE))
                .singleElement()
                .satisfies(e -> assertThat(e.message()).contains("post-run check"));
        assertThat(f.provider.cascade().markers("gold", Fixture.DATE)).isEmpty();

        // The same job end told again (the watchdog, a duplicate event) neither evaluates nor records anything more.
        int before = eventCount();
        glueEvent("SUCCEEDED");
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void aJobThatSucceedsLateAndPassesItsPostRunCheckCompletesTheDay() {
        String runId = givenUpRunWithAPostRunCheck();
        f.postRunAnswer =
                check -> new TraitVerdict(check.traitType(), TraitStatus.PASS, null, "42 rows", null, check.required());

        glueEvent("SUCCEEDED");

        assertThat(f.runLog().orElseThrow().status()).isEqualTo(RunLogStatus.COMPLETED);
        RunState run = f.provider.runs().get(runId).orElseThrow();
        assertThat(run.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(run.dayCompletedAt()).isNotNull();
        assertThat(f.events(EventKind.POST_RUN_CHECKED))
                .singleElement()
                .satisfies(e -> assertThat(e.status()).isEqualTo("PASSED"));
        assertThat(f.provider.cascade().markers("gold", Fixture.DATE)).hasSize(1);
    }

    @Test
    void theWatchdogRecordsTheEndOfAJobWhoseEventCameWhileItsExecutionWasDying() {
        String runId = waitingGlueRun("{maxAttempts: 1}");
        // The event came while the aborted execution still held its lock (its end not yet handled): nothing recorded.
        f.callbacks.endWithoutCallback("token-1");
        glueEvent("SUCCEEDED");
        assertThat(f.runLog()).isEmpty();
        f.provider.locks().releaseHeldBy(LOCK, Fixture.EXECUTION);
        f.jobSystem.states.put(JOB_RUN, RunCheck.succeeded("done"));

        f.clock.advance(Watchdog.CALLBACK_CHECK_INTERVAL);
        JsonNode tick = f.call(InterlockJson.write(OrchestratorAction.WATCHDOG.invocation(null)));

        assertThat(tick.get("payload").get("jobEventsRecovered").toString()).contains(runId);
        assertThat(f.runLog().orElseThrow().status()).isEqualTo(RunLogStatus.COMPLETED);
        assertThat(f.events(EventKind.JOB_END_RECORDED))
                .singleElement()
                .satisfies(e -> assertThat(e.details()).containsEntry("learnedBy", "watchdog"));
        assertThat(f.provider.cascade().markers("gold", Fixture.DATE)).hasSize(1);
    }

    @Test
    void theNextEvaluationFollowsAnEndedJobTheRunLogDoesNotHaveInsteadOfStartingASecond() {
        String runId = waitingGlueRun("{maxAttempts: 1}");
        f.callbacks.endWithoutCallback("token-1");
        glueEvent("SUCCEEDED");
        f.provider.locks().releaseHeldBy(LOCK, Fixture.EXECUTION);
        assertThat(f.runLog()).isEmpty();

        JsonNode resolved = f.call(new LinkedHashMap<>(Map.of(
                "action", "resolvePipeline",
                "pipelineId", Fixture.PIPELINE,
                "scheduleId", "daily",
                "date", Fixture.DATE.toString(),
                "executionName", "orders_2026-03-02_daily_next")));

        assertThat(resolved.get("payload").get("runId").asText()).isEqualTo(runId);
        assertThat(f.events(EventKind.RUN_ADOPTED)).hasSize(1);
    }
}
