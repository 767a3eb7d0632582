package dev.interlock.model.run;

import dev.interlock.model.pipeline.RetryPolicy;
import dev.interlock.model.run.RunLogGate.Admission;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.LocalDate;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RunLogTest {

    private static final LocalDate D = LocalDate.of(2026, 2, 23);
    private static final Instant T0 = Instant.parse("2026-02-23T06:00:00Z");

    private static RunLog first() {
        return RunLog.first("gold", D, "daily", "r1", "exec-1", T0);
    }

    @Test
    void notReadyEvaluationsDoNotUseAttempts() {
        RunLog log = first().pending("r1", "exec-1", T0.plusSeconds(60)).pending("r1", "exec-1", T0.plusSeconds(120));
        assertThat(log.status()).isEqualTo(RunLogStatus.PENDING);
        assertThat(log.attemptNumber()).isZero();
        assertThat(log.updatedAt()).isEqualTo(T0.plusSeconds(120));
    }

    @Test
    void onlyTerminalFailuresCountAndTheHistoryIsPreserved() {
        RunLog failedOnce = first().running("r1", "exec-1", T0).failed("r1", "HTTP 503", FailureCategory.TRANSIENT, T0.plusSeconds(10));
        RunLog failedTwice = failedOnce.running("r2", "exec-2", T0.plusSeconds(100)).failed("r2", "timed out", FailureCategory.TIMEOUT, T0.plusSeconds(200));
        assertThat(failedTwice.attemptNumber()).isEqualTo(2);
        assertThat(failedTwice.failureCategory()).isEqualTo(FailureCategory.TIMEOUT);
        assertThat(failedTwice.retryHistory()).containsExactly(
                new RetryAttempt(1, RunLogStatus.FAILED, "r1", "HTTP 503", FailureCategory.TRANSIENT, T0, T0.plusSeconds(10)),
                new RetryAttempt(2, RunLogStatus.FAILED, "r2", "timed out", FailureCategory.TIMEOUT, T0.plusSeconds(100), T0.plusSeconds(200)));

        RunLog completed = failedTwice.running("r3", "exec-3", T0.plusSeconds(300)).completed("r3", T0.plusSeconds(400));
        assertThat(completed.status()).isEqualTo(RunLogStatus.COMPLETED);
        assertThat(completed.attemptNumber()).isEqualTo(2);
        assertThat(completed.retryHistory()).hasSize(2);
        assertThat(completed.failureMessage()).isNull();
        assertThat(completed.completedAt()).isEqualTo(T0.plusSeconds(400));
    }

    @Test
    void aFailureWithoutCategoryIsRecordedAsTransient() {
        assertThat(first().failed("r1", "boom", null, T0).failureCategory()).isEqualTo(FailureCategory.TRANSIENT);
    }

    @Test
    void gateLetsTheFirstAndNotReadyEvaluationsThrough() {
        assertThat(RunLogGate.admit(null, RetryPolicy.DEFAULT, false, T0)).isEqualTo(new Admission.Proceed(1));
        assertThat(RunLogGate.admit(first().pending("r1", "e", T0), RetryPolicy.DEFAULT, false, T0)).isEqualTo(new Admission.Proceed(1));
    }

    @Test
    void gateSkipsCompletedRunsUnlessReplayed() {
        RunLog done = first().running("r1", "e", T0).completed("r1", T0.plusSeconds(5));
        assertThat(RunLogGate.admit(done, RetryPolicy.DEFAULT, false, T0)).isEqualTo(new Admission.Skip("already completed", 0));
        assertThat(RunLogGate.admit(done, RetryPolicy.DEFAULT, true, T0)).isEqualTo(new Admission.Proceed(1));
        assertThat(RunLogGate.admit(first().running("r1", "e", T0), RetryPolicy.DEFAULT, false, T0))
                .isEqualTo(new Admission.Skip("already running", 0));
    }

    @Test
    void gateWaitsOutTheBackoffAndReportsHowLong() {
        RunLog failed = first().failed("r1", "503", FailureCategory.TRANSIENT, T0);
        assertThat(RunLogGate.admit(failed, RetryPolicy.DEFAULT, false, T0.plusSeconds(10)))
                .isEqualTo(new Admission.Skip("backoff", 20));
        assertThat(RunLogGate.admit(failed, RetryPolicy.DEFAULT, false, T0.plusMillis(29_001)))
                .isEqualTo(new Admission.Skip("backoff", 1));
        assertThat(RunLogGate.admit(failed, RetryPolicy.DEFAULT, false, T0.plusSeconds(30))).isEqualTo(new Admission.Proceed(2));
        RunLog failedTwice = failed.failed("r2", "503", FailureCategory.TRANSIENT, T0.plusSeconds(40));
        assertThat(RunLogGate.admit(failedTwice, RetryPolicy.DEFAULT, false, T0.plusSeconds(41)))
                .isEqualTo(new Admission.Skip("backoff", 59));
    }

    @Test
    void gateStopsAtNonRetryableFailuresAndExhaustedAttempts() {
        RunLog permanent = first().failed("r1", "400", FailureCategory.PERMANENT, T0);
        assertThat(RunLogGate.admit(permanent, RetryPolicy.DEFAULT, false, T0.plusSeconds(3600)))
                .isEqualTo(new Admission.Skip("non-retryable failure (PERMANENT)", 0));
        var once = new RetryPolicy(1, 0, 2.0, List.of());
        assertThat(RunLogGate.admit(first().failed("r1", "503", FailureCategory.TRANSIENT, T0), once, false, T0.plusSeconds(1)))
                .isEqualTo(new Admission.Skip("max attempts exhausted (1 of 1)", 0));
    }

    @Test
    void aReplayProceedsWhateverHappenedBefore() {
        RunLog permanent = first().failed("r1", "400", FailureCategory.PERMANENT, T0);
        assertThat(RunLogGate.admit(permanent, RetryPolicy.DEFAULT, true, T0)).isEqualTo(new Admission.Proceed(2));
    }
}
