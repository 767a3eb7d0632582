package dev.interlock.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * awaitJobCompletion and jobStateChange meet on the job's item whichever comes first: the run's transition is recorded
 * once by CAS and the machine's wait ended once, with the poll's category for a failed job.
 */
class JobCallbackActionsTest {

    private static final String JOB_RUN = "jr_0042";
    private final Fixture f = new Fixture();

    /** A Glue pipeline resolved and triggered: its run RUNNING with the job's ids. */
    private String runningGlueRun() {
        PipelineConfig config = dev.interlock.testing.Documents.read("""
                name: orders
                archetype: batch-ingestion
                trigger: {type: glue, jobName: orders-etl}
                maxJobDurationSeconds: 600
                """, PipelineConfig.class);
        f.provider.pipelines().put(config);
        String runId = f.resolve();
        RunState pending = f.provider.runs().get(runId).orElseThrow();
        RunState triggering = pending.moveTo(RunStatus.TRIGGERING, f.clock.instant());
        assertThat(f.provider.runs().compareAndSwap(pending.version(), triggering))
                .isTrue();
        RunState running = triggering
                .moveTo(RunStatus.RUNNING, f.clock.instant())
                .withMetadata(Map.of("glue_job_name", "orders-etl", "glue_job_run_id", JOB_RUN));
        assertThat(f.provider.runs().compareAndSwap(triggering.version(), running))
                .isTrue();
        // The execution that started the job holds the day's lock while it lives.
        assertThat(f.provider.locks().acquire(LOCK, Fixture.EXECUTION, java.time.Duration.ofHours(4)))
                .isTrue();
        return runId;
    }

    private static final dev.interlock.model.keys.LockKey LOCK =
            new dev.interlock.model.keys.LockKey(Fixture.PIPELINE, "daily", Fixture.DATE);

    private JsonNode await(String runId, String token) {
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("taskToken", token);
        payload.put("triggerType", "glue");
        payload.put("metadata", Map.of("glue_job_name", "orders-etl", "glue_job_run_id", JOB_RUN));
        return f.call(f.request(OrchestratorAction.AWAIT_JOB_COMPLETION, runId, payload));
    }

    private JsonNode glueEvent(String state, String jobRunId) {
        return f.glueEvent("orders-etl", jobRunId, state);
    }

    private List<Event> transitionsByCallback() {
        return f.events(EventKind.RUN_STATE_CHANGED).stream()
                .filter(e ->
                        e.details() != null && "callback".equals(e.details().get("completedBy")))
                .toList();
    }

    @Test
    void resolvePipelineSaysGlueCompletesByCallbackWithoutAHeartbeatAndATimeoutPastTheJobsMaximum() {
        runningGlueRun();
        JsonNode payload =
                f.call(f.request(OrchestratorAction.RESOLVE_PIPELINE)).get("payload");
        assertThat(payload.get("completionByCallback").asBoolean()).isTrue();
        assertThat(payload.has("callbackHeartbeatSeconds"))
                .as("a lost event is the watchdog's, not a heartbeat's")
                .isFalse();
        int timeout = payload.get("callbackTimeoutSeconds").asInt();
        assertThat(timeout).isEqualTo(600 + payload.get("pollIntervalSeconds").asInt());
        assertThat(payload.get("nextPollSeconds").asInt())
                .as("the machine looks again only at the wait's timeout")
                .isEqualTo(timeout);
    }

    private JsonNode tick() {
        JsonNode response = f.call(InterlockJson.write(OrchestratorAction.WATCHDOG.invocation(null)));
        assertThat(response.get("result").asText()).isEqualTo("proceed");
        return response.get("payload");
    }

    private List<Event> transitionsBy(String who) {
        return f.events(EventKind.RUN_STATE_CHANGED).stream()
                .filter(e -> e.details() != null && who.equals(e.details().get("completedBy")))
                .toList();
    }

    @Test
    void aLostEventIsFoundByTheWatchdogsCallbackCheckWhichCompletesTheWait() {
        String runId = runningGlueRun();
        await(runId, "token-1");

        f.clock.advance(Watchdog.CALLBACK_CHECK_INTERVAL.minusSeconds(1));
        tick();
        assertThat(f.jobSystem.asked).as("not due yet").isEmpty();

        f.clock.advance(java.time.Duration.ofSeconds(1));
        JsonNode stillRunning = tick();
        assertThat(f.jobSystem.asked).singleElement().satisfies(r -> {
            assertThat(r.triggerType()).isEqualTo(dev.interlock.model.trigger.TriggerType.GLUE);
            assertThat(r.metadata()).containsEntry("glue_job_run_id", JOB_RUN);
            assertThat(r.runId()).isEqualTo(runId);
        });
        assertThat(stillRunning.get("jobEventsRecovered")).isEmpty();
        assertThat(f.callbacks.sent).as("the job still runs").isEmpty();

        // The job ends; its event never arrives.
        f.jobSystem.states.put(JOB_RUN, dev.interlock.jobs.RunCheck.succeeded("glue job run jr_0042 SUCCEEDED"));
        f.clock.advance(Watchdog.CALLBACK_CHECK_INTERVAL.minusSeconds(1));
        tick();
        assertThat(f.callbacks.sent)
                .as("asked again only a check interval later")
                .isEmpty();
        f.clock.advance(java.time.Duration.ofSeconds(1));
        JsonNode recovered = tick();

        assertThat(recovered.get("jobEventsRecovered").get(0).asText()).isEqualTo(runId);
        assertThat(f.callbacks.sent).singleElement().satisfies(s -> {
            assertThat(s.token()).isEqualTo("token-1");
            assertThat(s.kind()).isEqualTo("success");
            assertThat(InterlockJson.tree(s.body()).get("state").asText()).isEqualTo("succeeded");
        });
        assertThat(f.provider.runs().get(runId).orElseThrow().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(transitionsBy("watchdog")).hasSize(1);
        assertThat(f.events(EventKind.JOB_EVENT_RECOVERED)).singleElement().satisfies(e -> {
            assertThat(e.runId()).isEqualTo(runId);
            assertThat(e.details())
                    .containsEntry("reason", Watchdog.NO_JOB_STATE_EVENT)
                    .containsEntry("jobId", JOB_RUN)
                    .containsEntry("jobState", "succeeded");
        });

        f.clock.advance(Watchdog.CALLBACK_CHECK_INTERVAL.multipliedBy(2));
        int asked = f.jobSystem.asked.size();
        tick();
        assertThat(f.jobSystem.asked).as("the check is done").hasSize(asked);
        assertThat(f.callbacks.sent).hasSize(1);
    }

    @Test
    void aFailedJobFoundByTheWatchdogFailsTheWaitWithItsCategory() {
        String runId = runningGlueRun();
        await(runId, "token-1");
        f.jobSystem.states.put(
                JOB_RUN, dev.interlock.jobs.RunCheck.failed("glue job run jr_0042 TIMEOUT", FailureCategory.TIMEOUT));
        f.clock.advance(Watchdog.CALLBACK_CHECK_INTERVAL);
        tick();

        assertThat(f.callbacks.sent).singleElement().satisfies(s -> {
            assertThat(s.kind()).isEqualTo("failure");
            assertThat(s.body()).startsWith(JobCompletion.JOB_FAILED + ": glue job jr_0042 ended failed");
        });
        RunState run = f.provider.runs().get(runId).orElseThrow();
        assertThat(run.status()).isEqualTo(RunStatus.FAILED);
        assertThat(run.failureCategory()).isEqualTo(FailureCategory.TIMEOUT);
    }

    @Test
    void anEventThatCameFirstLeavesTheWatchdogNothingToDo() {
        String runId = runningGlueRun();
        await(runId, "token-1");
        f.jobSystem.states.put(JOB_RUN, dev.interlock.jobs.RunCheck.succeeded("done"));
        glueEvent("SUCCEEDED", JOB_RUN);
        f.clock.advance(Watchdog.CALLBACK_CHECK_INTERVAL);
        tick();

        assertThat(f.jobSystem.asked)
                .as("the run is decided: the job is not asked")
                .isEmpty();
        assertThat(f.callbacks.sent).hasSize(1);
        assertThat(f.events(EventKind.JOB_EVENT_RECOVERED)).isEmpty();
        assertThat(f.events(EventKind.JOB_WAIT_ALREADY_ENDED)).isEmpty();
        assertThat(transitionsBy("callback")).hasSize(1);
    }

    @Test
    void aLateEventAfterTheWatchdogCompletedTheWaitChangesNothingAndSaysSo() {
        String runId = runningGlueRun();
        await(runId, "token-1");
        f.jobSystem.states.put(JOB_RUN, dev.interlock.jobs.RunCheck.succeeded("done"));
        f.clock.advance(Watchdog.CALLBACK_CHECK_INTERVAL);
        tick();

        JsonNode late = glueEvent("SUCCEEDED", JOB_RUN);

        assertThat(late.get("payload").get("completed").asBoolean()).isFalse();
        assertThat(f.provider.runs().get(runId).orElseThrow().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(f.events(EventKind.RUN_STATE_CHANGED).stream()
                        .filter(e -> "COMPLETED".equals(e.status()))
                        .toList())
                .as("one transition")
                .hasSize(1);
        assertThat(f.events(EventKind.JOB_WAIT_ALREADY_ENDED))
                .singleElement()
                .satisfies(e -> assertThat(e.details())
                        .containsEntry("completedBy", "callback")
                        .containsEntry("jobId", JOB_RUN));
    }

    @Test
    void anEventAndTheWatchdogCompletingTheSameWaitAtOnceDecideOnce() throws Exception {
        String runId = runningGlueRun();
        await(runId, "token-1");
        f.jobSystem.states.put(JOB_RUN, dev.interlock.jobs.RunCheck.succeeded("done"));
        f.clock.advance(Watchdog.CALLBACK_CHECK_INTERVAL);
        java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(2);
        try (var pool = java.util.concurrent.Executors.newFixedThreadPool(2)) {
            var watchdog = pool.submit(() -> {
                start.await();
                return tick();
            });
            var event = pool.submit(() -> {
                start.await();
                return glueEvent("SUCCEEDED", JOB_RUN);
            });
            watchdog.get();
            event.get();
        }

        assertThat(f.provider.runs().get(runId).orElseThrow().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(f.events(EventKind.RUN_STATE_CHANGED).stream()
                        .filter(e -> "COMPLETED".equals(e.status()))
                        .toList())
                .as("one transition, by whichever won the CAS")
                .hasSize(1);
        assertThat(f.callbacks.sent)
                .as("the wait ended once; a second send (if the watchdog asked before the CAS) found it closed")
                .hasSizeBetween(1, 2);
        assertThat(f.events(EventKind.JOB_EVENT_RECOVERED)).hasSizeLessThanOrEqualTo(1);
        assertThat(f.events(EventKind.JOB_WAIT_ALREADY_ENDED)).hasSize(f.callbacks.sent.size() - 1);
    }

    @Test
    void theEventEndsAWaitThatStartedFirst() {
        String runId = runningGlueRun();
        JsonNode waiting = await(runId, "token-1");
        assertThat(waiting.get("result").asText()).isEqualTo("proceed");
        assertThat(waiting.get("payload").get("completed").asBoolean()).isFalse();
        assertThat(f.callbacks.sent).isEmpty();

        JsonNode handled = glueEvent("SUCCEEDED", JOB_RUN);

        assertThat(handled.get("payload").get("waiting").asBoolean()).isTrue();
        assertThat(handled.get("payload").get("completed").asBoolean()).isTrue();
        assertThat(f.callbacks.sent).singleElement().satisfies(s -> {
            assertThat(s.token()).isEqualTo("token-1");
            assertThat(s.kind()).isEqualTo("success");
            assertThat(InterlockJson.tree(s.body()).get("state").asText()).isEqualTo("succeeded");
            assertThat(InterlockJson.tree(s.body()).get("failureCategory").asText())
                    .isEmpty();
        });
        assertThat(f.provider.runs().get(runId).orElseThrow().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(transitionsByCallback()).hasSize(1);
    }

    @Test
    void aJobThatEndedBeforeTheTokenWasRecordedIsNotLost() {
        String runId = runningGlueRun();
        JsonNode early = glueEvent("SUCCEEDED", JOB_RUN);
        assertThat(early.get("result").asText()).isEqualTo("proceed");
        assertThat(early.get("payload").get("waiting").asBoolean()).isFalse();
        assertThat(f.callbacks.sent).isEmpty();

        JsonNode waiting = await(runId, "token-1");

        assertThat(waiting.get("payload").get("completed").asBoolean()).isTrue();
        assertThat(f.callbacks.sent)
                .singleElement()
                .satisfies(s -> assertThat(s.kind()).isEqualTo("success"));
        assertThat(f.provider.runs().get(runId).orElseThrow().status()).isEqualTo(RunStatus.COMPLETED);
    }

    @Test
    void aGlueSuccessWhoseRunIsCheckedForLiesIsLeftToTheRunCheckersPoll() {
        String runId = runningGlueRun();
        RunState running = f.provider.runs().get(runId).orElseThrow();
        RunState checked =
                running.nextVersion(f.clock.instant()).withMetadata(Map.of("glue_error_log_pattern", "?ERROR ?FATAL"));
        assertThat(f.provider.runs().compareAndSwap(running.version(), checked)).isTrue();
        await(runId, "token-1");

        glueEvent("SUCCEEDED", JOB_RUN);

        assertThat(f.callbacks.sent).singleElement().satisfies(s -> {
            assertThat(s.kind()).isEqualTo("failure");
            assertThat(s.body()).startsWith(JobCompletion.JOB_TO_VERIFY + ": glue job jr_0042 ended SUCCEEDED");
        });
        assertThat(f.provider.runs().get(runId).orElseThrow().status())
                .as("the run-checker's poll decides it (FALSE_SUCCESS or COMPLETED)")
                .isEqualTo(RunStatus.RUNNING);
    }

    @Test
    void aFailedJobFailsTheWaitAndTheRunWithThePollsCategory() {
        String runId = runningGlueRun();
        await(runId, "token-1");

        glueEvent("TIMEOUT", JOB_RUN);

        assertThat(f.callbacks.sent).singleElement().satisfies(s -> {
            assertThat(s.kind()).isEqualTo("failure");
            assertThat(s.body()).startsWith("Interlock.JobFailed: glue job jr_0042 ended TIMEOUT");
        });
        RunState run = f.provider.runs().get(runId).orElseThrow();
        assertThat(run.status()).isEqualTo(RunStatus.FAILED);
        assertThat(run.failureCategory()).isEqualTo(FailureCategory.TIMEOUT);
    }

    @Test
    void aRedeliveredEventAndARetriedWaitChangeNothingTwice() {
        String runId = runningGlueRun();
        await(runId, "token-1");
        glueEvent("SUCCEEDED", JOB_RUN);
        JsonNode again = glueEvent("FAILED", JOB_RUN);

        assertThat(again.get("payload").get("completed").asBoolean())
                .as("the token already answered")
                .isFalse();
        assertThat(f.callbacks.sent)
                .extracting(Fixture.RecordingCallbacks.Sent::kind)
                .containsExactly("success", "success");
        assertThat(f.provider.runs().get(runId).orElseThrow().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(transitionsByCallback()).hasSize(1);
    }

    @Test
    void eventsThatAreNotJobEndsOrLackTheirIdsAreRefusedNamingTheField() {
        runningGlueRun();
        assertThat(glueEvent("RUNNING", JOB_RUN).get("result").asText()).isEqualTo("skip");
        JsonNode noId = f.call("{\"action\":\"" + OrchestratorAction.JOB_STATE_CHANGE.wireName()
                + "\",\"payload\":{\"source\":\"aws.glue\","
                + "\"detailType\":\"Glue Job State Change\",\"detail\":{\"state\":\"SUCCEEDED\"}}}");
        assertThat(noId.get("result").asText()).isEqualTo("error");
        assertThat(noId.get("reason").asText()).contains("payload.detail.jobRunId");
        JsonNode other = f.call("{\"action\":\"" + OrchestratorAction.JOB_STATE_CHANGE.wireName()
                + "\",\"payload\":{\"source\":\"aws.s3\"," + "\"detailType\":\"Object Created\",\"detail\":{}}}");
        assertThat(other.get("reason").asText()).contains("payload.source/payload.detailType");
        assertThat(f.callbacks.sent).isEmpty();
    }
}
