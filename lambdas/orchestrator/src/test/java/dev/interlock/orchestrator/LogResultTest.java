package dev.interlock.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.keys.LockKey;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.store.LockLostException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class LogResultTest {

    private final Fixture f = new Fixture();

    @BeforeEach
    void pipeline() {
        f.register("");
    }

    private JsonNode fail(String runId, String category) {
        return f.call(f.request(
                OrchestratorAction.LOG_RESULT,
                runId,
                Map.of("status", "FAILED", "failureCategory", category, "message", "job failed", "phase", "run")));
    }

    private JsonNode complete(String runId) {
        return f.call(f.request(
                OrchestratorAction.LOG_RESULT,
                runId,
                Map.of("status", "COMPLETED", "triggerMetadata", Map.of("glue_job_run_id", "jr_1"))));
    }

    /** The trigger moved the run to RUNNING (the trigger Lambda's CAS). */
    private void running(String runId) {
        RunState run = f.provider.runs().get(runId).orElseThrow();
        RunState triggering = run.moveTo(RunStatus.TRIGGERING, f.clock.instant());
        assertThat(f.provider.runs().compareAndSwap(run.version(), triggering)).isTrue();
        assertThat(f.provider
                        .runs()
                        .compareAndSwap(triggering.version(), triggering.moveTo(RunStatus.RUNNING, f.clock.instant())))
                .isTrue();
    }

    @Test
    void aFailureCountsOneAttemptMovesTheRunAndIsRetryableWithBackoff() {
        String runId = f.resolve();
        running(runId);

        JsonNode response = fail(runId, "TRANSIENT");

        assertThat(response.get("result").asText()).isEqualTo("proceed");
        JsonNode p = response.get("payload");
        assertThat(p.get("status").asText()).isEqualTo("FAILED");
        assertThat(p.get("attemptNumber").asInt()).isEqualTo(1);
        assertThat(p.get("retryable").asBoolean()).isTrue();
        assertThat(p.get("retryBackoffSeconds").asLong()).isEqualTo(30);
        assertThat(p.get("loggedAt").asText()).isEqualTo("2026-03-02T10:00:00.000Z");
        var log = f.runLog().orElseThrow();
        assertThat(log.status()).isEqualTo(RunLogStatus.FAILED);
        assertThat(log.attemptNumber()).isEqualTo(1);
        assertThat(log.failureCategory()).isEqualTo(FailureCategory.TRANSIENT);
        assertThat(log.retryHistory()).hasSize(1);
        RunState run = f.provider.runs().get(runId).orElseThrow();
        assertThat(run.status()).isEqualTo(RunStatus.FAILED);
        assertThat(run.failureMessage()).isEqualTo("job failed");
        assertThat(f.events(EventKind.RUN_STATE_CHANGED))
                .extracting(e -> e.status())
                .containsExactlyInAnyOrder("PENDING", "FAILED");
        assertThat(f.events(EventKind.RETRY_SCHEDULED)).hasSize(1);
        assertThat(f.alerts.sent).isEmpty();
    }

    @Test
    void aHolderThatLostItsLockWritesNeitherRunLogNorRunStateAndRecordsWhy() {
        String runId = f.resolve();
        running(runId);
        LockKey lock = new LockKey(Fixture.PIPELINE, "daily", Fixture.DATE);
        f.provider.locks().forceRelease(lock);
        f.provider.locks().acquire(lock, "orders_2026-03-02_daily_other", Duration.ofHours(5));

        assertThatThrownBy(() -> complete(runId))
                .isInstanceOf(LockLostException.class)
                .hasMessageContaining(Fixture.EXECUTION);

        assertThat(f.runLog()).isEmpty();
        assertThat(f.provider.runs().get(runId).orElseThrow().status()).isEqualTo(RunStatus.RUNNING);
        assertThat(f.events(EventKind.LOCK_LOST)).singleElement().satisfies(e -> {
            assertThat(e.runId()).isEqualTo(runId);
            assertThat(e.details()).containsEntry("executionName", Fixture.EXECUTION);
        });
        assertThat(f.provider.locks().holder(lock).orElseThrow().owner()).isEqualTo("orders_2026-03-02_daily_other");
    }

    @Test
    void aRepeatedCallChangesNothingAndAnswersTheSame() {
        String runId = f.resolve();
        JsonNode first = fail(runId, "TRANSIENT");
        f.clock.advance(Duration.ofSeconds(5));

        JsonNode repeat = fail(runId, "TRANSIENT");

        assertThat(repeat.get("payload")).isEqualTo(first.get("payload"));
        assertThat(f.runLog().orElseThrow().attemptNumber()).isEqualTo(1);
        assertThat(f.runLog().orElseThrow().retryHistory()).hasSize(1);
        assertThat(f.events(EventKind.RUN_STATE_CHANGED)).hasSize(2);
    }

    @Test
    void theLastAttemptIsNotRetryableAndAlertsRetryExhaustedOnce() {
        JsonNode last = null;
        for (int i = 0; i < 3; i++) {
            last = fail(f.resolve(), "TIMEOUT");
            f.clock.advance(Duration.ofMinutes(10));
        }

        assertThat(last.get("payload").get("attemptNumber").asInt()).isEqualTo(3);
        assertThat(last.get("payload").get("retryable").asBoolean()).isFalse();
        assertThat(last.get("payload").get("retryBackoffSeconds").asLong()).isZero();
        assertThat(f.alerts.of(AlertKind.RETRY_EXHAUSTED)).hasSize(1);
        assertThat(f.alerts.sent).hasSize(1);
        assertThat(f.events(EventKind.RETRY_EXHAUSTED)).hasSize(1);
        assertThat(f.runLog().orElseThrow().retryHistory())
                .extracting(a -> a.attempt())
                .containsExactly(1, 2, 3);
    }

    @Test
    void aPermanentFailureIsNotRetriedAndAlertsRunFailed() {
        JsonNode response = fail(f.resolve(), "PERMANENT");

        assertThat(response.get("payload").get("retryable").asBoolean()).isFalse();
        assertThat(response.get("payload").get("retryBackoffSeconds").asLong()).isZero();
        assertThat(f.alerts.of(AlertKind.RUN_FAILED)).hasSize(1);
    }

    @Test
    void anEmptyCategoryIsTransient() {
        JsonNode response = fail(f.resolve(), "");

        assertThat(response.get("payload").get("retryable").asBoolean()).isTrue();
        assertThat(f.runLog().orElseThrow().failureCategory()).isEqualTo(FailureCategory.TRANSIENT);
    }

    @Test
    void validationExhaustionFailsThePendingRunAndAlertsWithTheBlockingTraits() {
        String runId = f.resolve();

        JsonNode response = f.call(f.request(
                OrchestratorAction.LOG_RESULT,
                runId,
                Map.of(
                        "status",
                        "FAILED",
                        "failureCategory",
                        "VALIDATION_EXHAUSTED",
                        "message",
                        "validation deadline passed before every required trait passed",
                        "phase",
                        "validation",
                        "blocking",
                        List.of("upstream-dependency"))));

        assertThat(response.get("payload").get("retryable").asBoolean()).isFalse();
        assertThat(response.get("payload").get("attemptNumber").asInt()).isEqualTo(1);
        assertThat(f.provider.runs().get(runId).orElseThrow().status()).isEqualTo(RunStatus.FAILED);
        assertThat(f.alerts.of(AlertKind.VALIDATION_EXHAUSTED)).hasSize(1);
        assertThat(f.alerts.sent.get(0).details()).containsEntry("blocking", List.of("upstream-dependency"));
        assertThat(f.events(EventKind.VALIDATION_EXHAUSTED)).hasSize(1);
    }

    @Test
    void completionCountsNoAttemptAndMovesTheRunToCompleted() {
        String runId = f.resolve();
        running(runId);
        f.clock.advance(Duration.ofMinutes(3));

        JsonNode response = complete(runId);

        JsonNode p = response.get("payload");
        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(p.get("status").asText()).isEqualTo("COMPLETED");
        assertThat(p.get("attemptNumber").asInt()).isEqualTo(1);
        assertThat(p.get("retryable").asBoolean()).isFalse();
        assertThat(p.get("retryBackoffSeconds").asLong()).isZero();
        assertThat(p.get("loggedAt").asText()).isEqualTo("2026-03-02T10:03:00.000Z");
        var log = f.runLog().orElseThrow();
        assertThat(log.status()).isEqualTo(RunLogStatus.COMPLETED);
        assertThat(log.attemptNumber()).isZero();
        assertThat(log.completedAt()).isEqualTo(f.clock.instant());
        RunState run = f.provider.runs().get(runId).orElseThrow();
        assertThat(run.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(run.metadata()).containsEntry("glue_job_run_id", "jr_1");
    }

    @Test
    void completionAfterFailuresKeepsTheHistory() {
        fail(f.resolve(), "TRANSIENT");
        f.clock.advance(Duration.ofMinutes(1));
        String second = f.resolve();
        f.clock.advance(Duration.ofMinutes(1));

        JsonNode response = complete(second);
        JsonNode repeat = complete(second);

        var log = f.runLog().orElseThrow();
        assertThat(log.attemptNumber()).isEqualTo(1);
        assertThat(log.retryHistory())
                .extracting(a -> a.status())
                .containsExactly(RunLogStatus.FAILED, RunLogStatus.COMPLETED);
        assertThat(log.failureCategory()).isNull();
        assertThat(response.get("payload").get("attemptNumber").asInt()).isEqualTo(2);
        assertThat(repeat.get("payload")).isEqualTo(response.get("payload"));
    }

    @Test
    void aRunTheTriggerAlreadyFailedStillGetsItsRunLog() {
        String runId = f.resolve();
        RunState run = f.provider.runs().get(runId).orElseThrow();
        RunState triggering = run.moveTo(RunStatus.TRIGGERING, f.clock.instant());
        f.provider.runs().compareAndSwap(run.version(), triggering);
        f.provider.runs().compareAndSwap(triggering.version(), triggering.moveTo(RunStatus.FAILED, f.clock.instant()));

        JsonNode response = f.call(f.request(
                OrchestratorAction.LOG_RESULT,
                runId,
                Map.of("status", "FAILED", "failureCategory", "PERMANENT", "message", "HTTP 404", "phase", "trigger")));

        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(f.runLog().orElseThrow().failureMessage()).isEqualTo("HTTP 404");
        assertThat(f.provider.runs().get(runId).orElseThrow().version()).isEqualTo(3);
        assertThat(f.events(EventKind.RUN_STATE_CHANGED))
                .extracting(e -> e.status())
                .containsExactlyInAnyOrder("PENDING", "FAILED");
    }

    @Test
    void anUnknownRunStillGetsItsRunLog() {
        JsonNode response = fail("run-nobody-created", "TRANSIENT");

        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(f.runLog().orElseThrow().runId()).isEqualTo("run-nobody-created");
        assertThat(f.logText()).contains("run not found; logging the result without a run state");
    }

    @Test
    void aFailureOfAVanishedPipelineIsLoggedButNotRetried() {
        String runId = f.resolve();
        f.provider.pipelines().delete("orders");

        JsonNode response = fail(runId, "TRANSIENT");

        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(response.get("payload").get("retryable").asBoolean()).isFalse();
        assertThat(f.alerts.of(AlertKind.RUN_FAILED)).hasSize(1);
    }

    @Test
    void aStatusOtherThanCompletedOrFailedIsAnError() {
        JsonNode response = f.call(f.request(OrchestratorAction.LOG_RESULT, "run-1", Map.of("status", "PENDING")));

        assertThat(response.get("result").asText()).isEqualTo("error");
        assertThat(response.get("reason").asText())
                .isEqualTo("payload.status must be COMPLETED or FAILED, got 'PENDING'");
        assertThat(response.get("payload").get("retryable").asBoolean()).isFalse();
        assertThat(response.get("payload").get("retryBackoffSeconds").asLong()).isZero();
        assertThat(response.get("payload").get("loggedAt").asText()).isEqualTo("2026-03-02T10:00:00.000Z");
        assertThat(f.runLog()).isEmpty();
    }

    @Test
    void withoutARunIdItIsAnError() {
        JsonNode response = f.call(f.request(OrchestratorAction.LOG_RESULT, Map.of("status", "FAILED")));

        assertThat(response.get("result").asText()).isEqualTo("error");
        assertThat(response.get("payload").get("status").asText()).isEmpty();
    }

    @Test
    void anAlertThatCouldNotBeDeliveredIsSentByTheNextAttemptToLogIt() {
        String runId = f.resolve();
        f.alerts.failNext(1);

        fail(runId, "PERMANENT");
        fail(runId, "PERMANENT");

        assertThat(f.alerts.of(AlertKind.RUN_FAILED)).hasSize(1);
        assertThat(f.runLog().orElseThrow().attemptNumber()).isEqualTo(1);
    }

    @Test
    void loggingACompletedRunDoesNotReadThePipeline() {
        // Only a failure needs the pipeline (its retry policy); the happy path is spared the read.
        String runId = f.resolve();
        CountingProvider counting = CountingProvider.around(f.provider);

        List<String> calls = counting.storeCallsDuring(() -> assertThat(f.callOver(
                                counting.provider(),
                                f.request(
                                        OrchestratorAction.LOG_RESULT,
                                        runId,
                                        // As LogCompleted sends it for a pipeline without post-run checks.
                                        Map.of(
                                                "status",
                                                "COMPLETED",
                                                "postRunChecks",
                                                false,
                                                "completionDeadline",
                                                "")))
                        .get("result")
                        .asText())
                .isEqualTo("proceed"));

        assertThat(calls).isNotEmpty().doesNotContain("pipelines.get");
        assertThat(f.runLog().orElseThrow().status()).isEqualTo(RunLogStatus.COMPLETED);
    }

    @Test
    void aRunTheTriggerCompletedHasItsDayRecordedCompletedOnTheRunAndItsRepeatWritesNothing() {
        String runId = f.resolve();
        RunState pending = f.provider.runs().get(runId).orElseThrow();
        RunState triggering = pending.moveTo(RunStatus.TRIGGERING, Fixture.T0);
        assertThat(f.provider.runs().compareAndSwap(1, triggering)).isTrue();
        assertThat(f.provider.runs().compareAndSwap(2, triggering.moveTo(RunStatus.COMPLETED, Fixture.T0)))
                .isTrue();
        CountingProvider counting = CountingProvider.around(f.provider);
        Map<String, Object> request = f.request(
                OrchestratorAction.LOG_RESULT,
                runId,
                Map.of(
                        "status",
                        "COMPLETED",
                        "triggerMetadata",
                        Map.of(),
                        "triggerStatus",
                        "completed",
                        "postRunChecks",
                        false,
                        "completionDeadline",
                        ""));

        List<String> calls = counting.storeCallsDuring(() -> f.callOver(counting.provider(), request));
        int eventsAfterFirst = f.events(EventKind.RUN_STATE_CHANGED).size();
        JsonNode first = f.call(request);
        JsonNode repeat = f.call(request);

        // The run is read for its version: its day completed is recorded on it (the run's end in OpenLineage).
        assertThat(calls).doesNotContain("pipelines.get");
        assertThat(f.provider.runs().get(runId).orElseThrow().dayCompletedAt()).isNotNull();
        assertThat(repeat).isEqualTo(first);
        assertThat(first.get("payload").get("status").asText()).isEqualTo("COMPLETED");
        assertThat(f.runLog().orElseThrow().status()).isEqualTo(RunLogStatus.COMPLETED);
        assertThat(f.runLog().orElseThrow().retryHistory()).hasSize(1);
        // One completion event, written with the run log; the Lambda retries wrote none.
        assertThat(f.events(EventKind.RUN_STATE_CHANGED).stream()
                        .filter(e -> "COMPLETED".equals(e.status()))
                        .count())
                .isEqualTo(1);
        assertThat(f.events(EventKind.RUN_STATE_CHANGED)).hasSize(eventsAfterFirst);
    }
}
