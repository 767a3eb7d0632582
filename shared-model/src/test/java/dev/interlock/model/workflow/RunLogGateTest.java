package dev.interlock.model.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.pipeline.RetryPolicy;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.workflow.RunLogGate.Admission;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RunLogGateTest {

    private static final LocalDate D = LocalDate.of(2026, 2, 23);
    private static final Instant T0 = Instant.parse("2026-02-23T06:00:00Z");
    private static final RetryPolicy ONE_ATTEMPT = new RetryPolicy(1, 30, 2.0, List.of());

    private static Optional<RunLog> failed(Optional<RunLog> log, String runId, FailureCategory category, Instant at) {
        return Optional.of(AttemptLedger.afterFailure(log, "gold", D, "daily", runId, "exec", "boom", category, at));
    }

    private static Optional<RunLog> completed(Optional<RunLog> log, String runId, Instant at) {
        return Optional.of(AttemptLedger.afterCompletion(log, "gold", D, "daily", runId, "exec", at));
    }

    @Test
    void aDayWithoutRunLogProceedsWithTheFirstAttempt() {
        assertThat(RunLogGate.admit(Optional.empty(), RetryPolicy.DEFAULT, false, T0))
                .isEqualTo(new Admission.Proceed(1));
        assertThat(RunLogGate.withoutPolicy(Optional.empty(), false)).contains(new Admission.Proceed(1));
    }

    @Test
    void aCompletedDayIsSkippedUnlessReplayedAndAReplayStartsTheAttemptsAgain() {
        Optional<RunLog> done =
                completed(failed(Optional.empty(), "r1", FailureCategory.TRANSIENT, T0), "r2", T0.plusSeconds(60));

        assertThat(RunLogGate.withoutPolicy(done, false)).contains(new Admission.Skip("already completed", 0));
        assertThat(RunLogGate.withoutPolicy(done, true)).isEmpty();
        assertThat(RunLogGate.admit(done, RetryPolicy.DEFAULT, true, T0.plusSeconds(61)))
                .isEqualTo(new Admission.Proceed(1));
    }

    @Test
    void insideTheBackoffItSkipsAndSaysWhenToComeBack() {
        Optional<RunLog> failed = failed(Optional.empty(), "r1", FailureCategory.TRANSIENT, T0);

        assertThat(RunLogGate.admit(failed, RetryPolicy.DEFAULT, false, T0.plusSeconds(10)))
                .isEqualTo(new Admission.Skip("backoff period", 20));
        assertThat(RunLogGate.admit(failed, RetryPolicy.DEFAULT, false, T0.plusMillis(29_001)))
                .isEqualTo(new Admission.Skip("backoff period", 1));
        assertThat(RunLogGate.admit(failed, RetryPolicy.DEFAULT, false, T0.plusSeconds(30)))
                .isEqualTo(new Admission.Proceed(2));
        // Even a replay waits out the backoff.
        assertThat(RunLogGate.admit(failed, RetryPolicy.DEFAULT, true, T0.plusSeconds(10)))
                .isEqualTo(new Admission.Skip("backoff period", 20));
    }

    @Test
    void exhaustedAttemptsAndNonRetryableFailuresAreSkippedButNotForAReplay() {
        Optional<RunLog> once = failed(Optional.empty(), "r1", FailureCategory.TRANSIENT, T0);
        assertThat(RunLogGate.admit(once, ONE_ATTEMPT, false, T0.plusSeconds(3600)))
                .isEqualTo(new Admission.Skip("max attempts exceeded (1 of 1)", 0));
        Optional<RunLog> permanent = failed(Optional.empty(), "r1", FailureCategory.PERMANENT, T0);
        assertThat(RunLogGate.admit(permanent, RetryPolicy.DEFAULT, false, T0.plusSeconds(3600)))
                .isEqualTo(new Admission.Skip("non-retryable failure (PERMANENT)", 0));
        assertThat(RunLogGate.admit(permanent, RetryPolicy.DEFAULT, true, T0.plusSeconds(3600)))
                .isEqualTo(new Admission.Proceed(2));
    }

    @Test
    void aMissedValidationDeadlineUsesNoAttemptSoLateDataStillRunsOnTheNextMarker() {
        Optional<RunLog> exhausted = failed(Optional.empty(), "r1", FailureCategory.VALIDATION_EXHAUSTED, T0);

        // No backoff either: the next marker means new data, and it runs at once, as attempt 1.
        assertThat(RunLogGate.admit(exhausted, ONE_ATTEMPT, false, T0.plusSeconds(1)))
                .isEqualTo(new Admission.Proceed(1));
        Optional<RunLog> twice = failed(exhausted, "r2", FailureCategory.VALIDATION_EXHAUSTED, T0.plusSeconds(5));
        assertThat(RunLogGate.admit(twice, ONE_ATTEMPT, false, T0.plusSeconds(6)))
                .isEqualTo(new Admission.Proceed(1));
    }

    @Test
    void aMissedDeadlineAfterARealFailureStillLetsThatFailureDecide() {
        Optional<RunLog> permanent = failed(Optional.empty(), "r1", FailureCategory.PERMANENT, T0);
        Optional<RunLog> thenExhausted =
                failed(permanent, "r2", FailureCategory.VALIDATION_EXHAUSTED, T0.plusSeconds(60));
        assertThat(RunLogGate.admit(thenExhausted, RetryPolicy.DEFAULT, false, T0.plusSeconds(3600)))
                .isEqualTo(new Admission.Skip("non-retryable failure (PERMANENT)", 0));

        Optional<RunLog> transientThenExhausted = failed(
                failed(Optional.empty(), "r1", FailureCategory.TRANSIENT, T0),
                "r2",
                FailureCategory.VALIDATION_EXHAUSTED,
                T0.plusSeconds(60));
        assertThat(RunLogGate.admit(transientThenExhausted, ONE_ATTEMPT, false, T0.plusSeconds(3600)))
                .isEqualTo(new Admission.Skip("max attempts exceeded (1 of 1)", 0));
        assertThat(RunLogGate.admit(transientThenExhausted, RetryPolicy.DEFAULT, false, T0.plusSeconds(3600)))
                .isEqualTo(new Admission.Proceed(2));
    }
}
