package dev.interlock.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.model.trait.TraitStatus;
import dev.interlock.model.trait.TraitVerdict;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code logResult} COMPLETED runs the pipeline's post-run checks first (docs/post-run-checks.md). */
class PostRunChecksTest {

    private final Fixture f = new Fixture();

    private static final String POST_RUN = """
            postRun:
              - name: rows-written
                evaluator: "builtin:sensor-threshold"
                config: {sensor: orders-rows, field: rows, op: gt, value: 0}
            """;

    /** The job succeeded: the run-checker (or the job-state event) moved the run to COMPLETED. */
    private String succeeded() {
        return f.succeededRun();
    }

    private JsonNode complete(String runId) {
        return f.call(
                f.request(OrchestratorAction.LOG_RESULT, runId, Map.of("status", "COMPLETED", "postRunChecks", true)));
    }

    private void answer(TraitStatus status, String reason) {
        f.postRunAnswer = check -> new TraitVerdict(check.traitType(), status, null, reason, null, check.required());
    }

    @Test
    void aFailedRequiredCheckRecordsTheRunFailedVerificationAlertedAndNotRetried() {
        f.register(POST_RUN);
        String runId = succeeded();
        answer(TraitStatus.FAIL, "sensor orders-rows field 'rows' is 0, not gt 0");

        JsonNode p = complete(runId).get("payload");

        assertThat(p.get("status").asText()).isEqualTo("FAILED");
        assertThat(p.get("retryable").asBoolean()).isFalse();
        var log = f.runLog().orElseThrow();
        assertThat(log.status()).isEqualTo(RunLogStatus.FAILED);
        assertThat(log.failureCategory()).isEqualTo(FailureCategory.VERIFICATION);
        assertThat(log.failureMessage())
                .contains("post-run check rows-written failed")
                .contains("is 0, not gt 0");
        RunState run = f.provider.runs().get(runId).orElseThrow();
        assertThat(run.status()).isEqualTo(RunStatus.FAILED);
        assertThat(run.failureCategory()).isEqualTo(FailureCategory.VERIFICATION);
        assertThat(run.dayCompletedAt()).as("the run's day never completed").isNull();
        assertThat(f.events(EventKind.POST_RUN_CHECKED))
                .singleElement()
                .satisfies(e -> assertThat(e.status()).isEqualTo("FAILED"));
        assertThat(f.alerts.kinds()).containsExactly("RUN_FAILED");

        // A repeated call (a Step Functions retry) answers the same and evaluates nothing again.
        JsonNode again = complete(runId).get("payload");
        assertThat(again.get("status").asText()).isEqualTo("FAILED");
        assertThat(f.postRunEvaluations).isEqualTo(1);
        assertThat(f.events(EventKind.POST_RUN_CHECKED)).hasSize(1);
    }

    @Test
    void aListedVerificationFailureIsRetryableAndHandedToASuccessor() {
        f.register(POST_RUN + "retry: {maxAttempts: 2, retryableFailures: [VERIFICATION]}\n");
        String runId = succeeded();
        answer(TraitStatus.ERROR, "evaluator timed out");

        JsonNode p = complete(runId).get("payload");

        assertThat(p.get("status").asText()).isEqualTo("FAILED");
        assertThat(p.get("retryable").asBoolean()).isTrue();
        assertThat(f.events(EventKind.RETRY_SCHEDULED)).hasSize(1);
        assertThat(f.events(EventKind.MARKER_WRITTEN)).hasSize(1);
        assertThat(f.alerts.kinds()).isEmpty();
    }

    @Test
    void passingChecksCompleteTheDayAndAnOptionalFailureOnlyShows() {
        f.register(POST_RUN + """
                  - name: audit
                    evaluator: "builtin:always-fail"
                    required: false
                """);
        String runId = succeeded();
        f.postRunAnswer = check -> new TraitVerdict(
                check.traitType(),
                check.required() ? TraitStatus.PASS : TraitStatus.FAIL,
                null,
                null,
                null,
                check.required());

        JsonNode p = complete(runId).get("payload");

        assertThat(p.get("status").asText()).isEqualTo("COMPLETED");
        assertThat(f.runLog().orElseThrow().status()).isEqualTo(RunLogStatus.COMPLETED);
        RunState run = f.provider.runs().get(runId).orElseThrow();
        assertThat(run.dayCompletedAt())
                .as("the day recorded COMPLETED on the run, with the run log")
                .isEqualTo(f.runLog().orElseThrow().retryHistory().getFirst().completedAt());
        assertThat(f.postRunEvaluations).isEqualTo(2);
        assertThat(f.events(EventKind.POST_RUN_CHECKED))
                .singleElement()
                .satisfies(e -> assertThat(e.status()).isEqualTo("PASSED"));
    }

    @Test
    void aPipelineWithoutChecksEvaluatesNothing() {
        f.register("");
        String runId = succeeded();
        assertThat(complete(runId).get("payload").get("status").asText()).isEqualTo("COMPLETED");
        assertThat(f.postRunEvaluations).isZero();
        assertThat(f.events(EventKind.POST_RUN_CHECKED)).isEmpty();
    }

    /**
     * Deploy skew: an execution started on a state-machine definition from before post-run checks sends no
     * {@code postRunChecks} to logResult. Its pipeline's checks are read from the stored config, not skipped.
     */
    @Test
    void anExecutionOfAnEarlierDefinitionSendsNoPostRunChecksFieldAndTheStoredChecksAreStillEvaluated() {
        f.register(POST_RUN);
        String runId = succeeded();
        answer(TraitStatus.FAIL, "sensor orders-rows field 'rows' is 0, not gt 0");

        JsonNode p = f.call(f.request(OrchestratorAction.LOG_RESULT, runId, Map.of("status", "COMPLETED")))
                .get("payload");

        assertThat(f.postRunEvaluations)
                .as("the stored config's checks were evaluated")
                .isEqualTo(1);
        assertThat(p.get("status").asText()).isEqualTo("FAILED");
        assertThat(f.runLog().orElseThrow().failureCategory()).isEqualTo(FailureCategory.VERIFICATION);
        assertThat(f.events(EventKind.POST_RUN_CHECKED))
                .singleElement()
                .satisfies(e -> assertThat(e.status()).isEqualTo("FAILED"));
    }

    /** The new definition says {@code postRunChecks: false} for a pipeline without checks: nothing more is read. */
    @Test
    void anExplicitNoFromResolvePipelineEvaluatesNothing() {
        f.register(POST_RUN);
        String runId = succeeded();
        answer(TraitStatus.FAIL, "never asked");

        JsonNode p = f.call(f.request(
                        OrchestratorAction.LOG_RESULT, runId, Map.of("status", "COMPLETED", "postRunChecks", false)))
                .get("payload");

        assertThat(p.get("status").asText()).isEqualTo("COMPLETED");
        assertThat(f.postRunEvaluations).isZero();
    }
}
