package dev.interlock.model.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.pipeline.RetryPolicy;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.run.RetryAttempt;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunLogStatus;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AttemptLedgerTest {

    private static final LocalDate D = LocalDate.of(2026, 2, 23);
    private static final Instant T0 = Instant.parse("2026-02-23T06:00:00Z");

    private static RunLog failed(Optional<RunLog> log, String runId, FailureCategory category, Instant at) {
        return AttemptLedger.afterFailure(log, "gold", D, "daily", runId, "exec-" + runId, "boom", category, at);
    }

    private static RunLog completed(Optional<RunLog> log, String runId, Instant at) {
        return AttemptLedger.afterCompletion(log, "gold", D, "daily", runId, "exec-" + runId, at);
    }

    @Test
    void jobFailuresCountAndTheHistoryIsAppended() {
        RunLog once = failed(Optional.empty(), "r1", FailureCategory.TRANSIENT, T0);
        RunLog twice = failed(Optional.of(once), "r2", FailureCategory.TIMEOUT, T0.plusSeconds(100));

        assertThat(twice.status()).isEqualTo(RunLogStatus.FAILED);
        assertThat(twice.attemptNumber()).isEqualTo(2);
        assertThat(AttemptLedger.attemptsUsed(twice)).isEqualTo(2);
        assertThat(twice.failureCategory()).isEqualTo(FailureCategory.TIMEOUT);
        assertThat(twice.retryHistory())
                .containsExactly(
                        new RetryAttempt(1, RunLogStatus.FAILED, "r1", "boom", FailureCategory.TRANSIENT, T0, T0),
                        new RetryAttempt(
                                2,
                                RunLogStatus.FAILED,
                                "r2",
                                "boom",
                                FailureCategory.TIMEOUT,
                                T0.plusSeconds(100),
                                T0.plusSeconds(100)));
        assertThat(AttemptLedger.lastAttempt(twice)).map(RetryAttempt::runId).contains("r2");
    }

    @Test
    void aMissedValidationDeadlineIsRecordedButIsNotAnAttempt() {
        RunLog exhausted = failed(Optional.empty(), "r1", FailureCategory.VALIDATION_EXHAUSTED, T0);

        assertThat(exhausted.status()).isEqualTo(RunLogStatus.FAILED);
        assertThat(exhausted.failureCategory()).isEqualTo(FailureCategory.VALIDATION_EXHAUSTED);
        assertThat(exhausted.attemptNumber()).isZero();
        assertThat(AttemptLedger.attemptsUsed(exhausted)).isZero();
        assertThat(AttemptLedger.lastAttempt(exhausted)).isEmpty();
        // It is filed under the attempt it was waiting to make, which the next real attempt then makes.
        assertThat(exhausted.retryHistory())
                .singleElement()
                .extracting(RetryAttempt::attempt)
                .isEqualTo(1);
        RunLog thenFailed = failed(Optional.of(exhausted), "r2", FailureCategory.TRANSIENT, T0.plusSeconds(60));
        assertThat(thenFailed.attemptNumber()).isEqualTo(1);
        assertThat(thenFailed.retryHistory().get(1).attempt()).isEqualTo(1);
    }

    @Test
    void aReplayThatCannotBecomeReadyLeavesACompletedDayCompleted() {
        RunLog done = completed(Optional.empty(), "r1", T0);

        RunLog replay = failed(Optional.of(done), "r2", FailureCategory.VALIDATION_EXHAUSTED, T0.plusSeconds(600));

        assertThat(replay.status()).isEqualTo(RunLogStatus.COMPLETED);
        assertThat(replay.runId()).isEqualTo("r1");
        assertThat(replay.completedAt()).isEqualTo(T0);
        assertThat(replay.failureCategory()).isNull();
        assertThat(replay.retryHistory())
                .extracting(RetryAttempt::status)
                .containsExactly(RunLogStatus.COMPLETED, RunLogStatus.FAILED);
        assertThat(AttemptLedger.attemptsUsed(replay)).isZero();
    }

    @Test
    void aReplayWhoseJobFailsDoesMakeTheDayFailed() {
        RunLog done = completed(Optional.empty(), "r1", T0);

        RunLog replay = failed(Optional.of(done), "r2", FailureCategory.TRANSIENT, T0.plusSeconds(600));

        assertThat(replay.status()).isEqualTo(RunLogStatus.FAILED);
        // Attempts start again after a completion.
        assertThat(AttemptLedger.attemptsUsed(replay)).isEqualTo(1);
    }

    @Test
    void writingTheSameRunTwiceChangesNothing() {
        RunLog once = failed(Optional.empty(), "r1", FailureCategory.TRANSIENT, T0);
        assertThat(failed(Optional.of(once), "r1", FailureCategory.TRANSIENT, T0.plusSeconds(5)))
                .isSameAs(once);
        RunLog done = completed(Optional.of(once), "r2", T0.plusSeconds(60));
        assertThat(completed(Optional.of(done), "r2", T0.plusSeconds(65))).isSameAs(done);
        assertThat(done.retryHistory()).extracting(RetryAttempt::attempt).containsExactly(1, 2);
        assertThat(done.attemptNumber()).isEqualTo(1);
    }

    @Test
    void aFailureWithoutCategoryIsRecordedAsTransient() {
        assertThat(failed(Optional.empty(), "r1", null, T0).failureCategory()).isEqualTo(FailureCategory.TRANSIENT);
    }

    @Test
    void aRetryIsPendingOnlyForTheExecutionWhoseRetryableFailureIsTheLatestWrite() {
        RunLog once = failed(Optional.empty(), "r1", FailureCategory.TRANSIENT, T0);
        assertThat(AttemptLedger.retryPending(once, RetryPolicy.DEFAULT, "exec-r1"))
                .isTrue();
        assertThat(AttemptLedger.retryPending(once, RetryPolicy.DEFAULT, "exec-other"))
                .isFalse();
        assertThat(AttemptLedger.retryPending(
                        failed(Optional.empty(), "r1", FailureCategory.PERMANENT, T0), RetryPolicy.DEFAULT, "exec-r1"))
                .isFalse();
        assertThat(AttemptLedger.retryPending(
                        failed(Optional.empty(), "r1", FailureCategory.VALIDATION_EXHAUSTED, T0),
                        RetryPolicy.DEFAULT,
                        "exec-r1"))
                .isFalse();
        RetryPolicy once1 = new RetryPolicy(1, 30, 2.0, List.of());
        assertThat(AttemptLedger.retryPending(once, once1, "exec-r1"))
                .as("attempts used up")
                .isFalse();
        assertThat(AttemptLedger.retryPending(completed(Optional.of(once), "r2", T0), RetryPolicy.DEFAULT, "exec-r2"))
                .isFalse();
    }

    @Test
    void theWaitBeforeTheNextAttemptRoundsUp() {
        RetryAttempt failure =
                new RetryAttempt(1, RunLogStatus.FAILED, "r1", "boom", FailureCategory.TRANSIENT, T0, T0);
        assertThat(AttemptLedger.secondsUntilRetry(RetryPolicy.DEFAULT, 1, failure, T0.plusMillis(100)))
                .isEqualTo(30);
        assertThat(AttemptLedger.secondsUntilRetry(RetryPolicy.DEFAULT, 1, failure, T0.plusSeconds(30)))
                .isZero();
        assertThat(AttemptLedger.secondsUntilRetry(RetryPolicy.DEFAULT, 2, failure, T0.plusSeconds(30)))
                .isEqualTo(30);
    }

    @org.junit.jupiter.api.Test
    void aWaitATraitsPermanentErrorStoppedUsesNoAttemptAndTheNextMarkerPasses() {
        java.time.Instant at = java.time.Instant.parse("2026-03-02T09:00:00Z");
        RunLog stopped = AttemptLedger.afterFailure(
                java.util.Optional.empty(),
                "orders",
                java.time.LocalDate.parse("2026-03-02"),
                "daily",
                "run-1",
                "exec-1",
                "trait source-freshness failed PERMANENT: 403",
                FailureCategory.PERMANENT,
                "source-freshness",
                at);

        org.assertj.core.api.Assertions.assertThat(stopped.status()).isEqualTo(RunLogStatus.FAILED);
        org.assertj.core.api.Assertions.assertThat(stopped.failureCategory()).isEqualTo(FailureCategory.PERMANENT);
        org.assertj.core.api.Assertions.assertThat(AttemptLedger.attemptsUsed(stopped))
                .isZero();
        org.assertj.core.api.Assertions.assertThat(AttemptLedger.stoppedWait(stopped))
                .map(RetryAttempt::trait)
                .contains("source-freshness");
        org.assertj.core.api.Assertions.assertThat(RunLogGate.admit(
                        java.util.Optional.of(stopped),
                        dev.interlock.model.pipeline.RetryPolicy.DEFAULT,
                        false,
                        at.plusSeconds(1)))
                .isEqualTo(new RunLogGate.Admission.Proceed(1));
    }

    @Test
    void theRunLogKeepsWhatTheLatestRunWentWithoutAndAReplayThatCouldNotBecomeReadyLeavesItStanding() {
        RunLog degraded = AttemptLedger.afterCompletion(
                Optional.empty(), "gold", D, "daily", "r1", "exec-r1", List.of("row-count"), T0);
        assertThat(degraded.proceededWithout()).containsExactly("row-count");

        RunLog replayExhausted = failed(Optional.of(degraded), "r2", FailureCategory.VALIDATION_EXHAUSTED, T0);
        assertThat(replayExhausted.status()).isEqualTo(RunLogStatus.COMPLETED);
        assertThat(replayExhausted.proceededWithout())
                .as("the completion that stands is still the degraded one")
                .containsExactly("row-count");

        RunLog replayedFully = completed(Optional.of(replayExhausted), "r3", T0.plusSeconds(60));
        assertThat(replayedFully.proceededWithout()).isEmpty();

        RunLog degradedJobFailed = AttemptLedger.afterFailure(
                Optional.empty(),
                "gold",
                D,
                "daily",
                "r4",
                "exec-r4",
                "boom",
                FailureCategory.PERMANENT,
                null,
                List.of("row-count"),
                T0);
        assertThat(degradedJobFailed.status()).isEqualTo(RunLogStatus.FAILED);
        assertThat(degradedJobFailed.proceededWithout()).containsExactly("row-count");
    }
}
