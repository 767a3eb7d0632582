package dev.interlock.model.run;

import dev.interlock.model.pipeline.RetryPolicy;

import java.time.Duration;
import java.time.Instant;

/**
 * Decides from the run log of the execution date whether a new evaluation of (pipeline, date, schedule) may
 * proceed: already done, out of attempts, still backing off — or go. NOT READY evaluations are not attempts.
 */
public final class RunLogGate {
    private RunLogGate() {
    }

    /** The outcome of the gate. */
    public sealed interface Admission {
        /** Proceed; {@code attemptNumber} is the attempt a failure of this run would be recorded as. */
        record Proceed(int attemptNumber) implements Admission {
        }

        /** Skip; {@code retryAfterSeconds} is 0 unless waiting would change the answer. */
        record Skip(String reason, long retryAfterSeconds) implements Admission {
        }
    }

    /**
     * Judges {@code log} (null when the date has none yet) under {@code policy} at {@code now}. A replay (an
     * operator rerun or a late-arrival rerun, already bounded by the daily rerun budget) always proceeds: it is an
     * explicit request to process the day again, whatever happened before.
     */
    public static Admission admit(RunLog log, RetryPolicy policy, boolean replay, Instant now) {
        if (log == null) {
            return new Admission.Proceed(1);
        }
        int next = log.attemptNumber() + 1;
        if (replay) {
            return new Admission.Proceed(next);
        }
        return switch (log.status()) {
            case PENDING -> new Admission.Proceed(next);
            case COMPLETED -> new Admission.Skip("already completed", 0);
            case RUNNING -> new Admission.Skip("already running", 0);
            case CANCELLED -> new Admission.Skip("cancelled", 0);
            case FAILED -> afterFailure(log, policy, now);
        };
    }

    private static Admission afterFailure(RunLog log, RetryPolicy policy, Instant now) {
        if (!policy.isRetryable(log.failureCategory())) {
            return new Admission.Skip("non-retryable failure (" + log.failureCategory() + ")", 0);
        }
        if (log.attemptNumber() >= policy.maxAttempts()) {
            return new Admission.Skip("max attempts exhausted (" + log.attemptNumber() + " of " + policy.maxAttempts() + ")", 0);
        }
        Instant failedAt = log.updatedAt() == null ? Instant.EPOCH : log.updatedAt();
        Instant retryAt = failedAt.plus(policy.backoff(log.attemptNumber()));
        if (now.isBefore(retryAt)) {
            long wait = Duration.between(now, retryAt).toMillis();
            // Round up so a caller that waits exactly this long is never a millisecond early.
            return new Admission.Skip("backoff", (wait + 999) / 1000);
        }
        return new Admission.Proceed(log.attemptNumber() + 1);
    }
}
