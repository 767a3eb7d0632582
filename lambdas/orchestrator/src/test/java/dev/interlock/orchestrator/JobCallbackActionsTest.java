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
        return runId;
    }

    private JsonNode await(String runId, String token) {
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("taskToken", token);
        payload.put("triggerType", "glue");
        payload.put("metadata", Map.of("glue_job_name", "orders-etl", "glue_job_run_id", JOB_RUN));
        return f.call(f.request(OrchestratorAction.AWAIT_JOB_COMPLETION, runId, payload));
    }

    private JsonNode glueEvent(String state, String jobRunId) {
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("jobName", "orders-etl");
        detail.put("state", state);
        detail.put("jobRunId", jobRunId);
        detail.put("message", "Job run " + state.toLowerCase());
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("action", OrchestratorAction.JOB_STATE_CHANGE.wireName());
        request.put(
                "payload",
                Map.of(
                        "source",
                        "aws.glue",
                        "detailType",
                        "Glue Job State Change",
                        "time",
                        "2026-03-02T10:05:00Z",
                        "detail",
                        detail));
        return f.call(request);
    }

    private List<Event> transitionsByCallback() {
        return f.events(EventKind.RUN_STATE_CHANGED).stream()
                .filter(e ->
                        e.details() != null && "callback".equals(e.details().get("completedBy")))
                .toList();
    }

    @Test
    void resolvePipelineSaysGlueCompletesByCallbackWithAHeartbeatBoundedByTheJobsMaximum() {
        runningGlueRun();
        JsonNode payload =
                f.call(f.request(OrchestratorAction.RESOLVE_PIPELINE)).get("payload");
        assertThat(payload.get("completionByCallback").asBoolean()).isTrue();
        assertThat(payload.get("callbackHeartbeatSeconds").asInt()).isEqualTo(600);
        assertThat(payload.get("callbackTimeoutSeconds").asInt())
                .isEqualTo(600 + payload.get("pollIntervalSeconds").asInt());
        assertThat(payload.get("nextPollSeconds").asInt()).isEqualTo(600);
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
