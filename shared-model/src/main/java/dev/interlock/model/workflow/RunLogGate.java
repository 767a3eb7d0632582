package dev.interlock.model.workflow;

import dev.interlock.model.pipeline.RetryPolicy;
import dev.interlock.model.run.RetryAttempt;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunLogStatus;
import java.time.Instant;
import java.util.Optional;

/**
 * The run-log gate: decides from the run log of the execution date whether a new evaluation of (pipeline, date,
 * schedule) may proceed — already done, out of attempts, non-retryable, still backing off — or go. Attempts are
 * counted by {@link AttemptLedger}; the backoff uses the formula the logging of a failure reported, so the
 * in-execution retry loop, which waits exactly that long, always passes.
 */
public final class RunLogGate {
    private RunLogGate() {}

    /** The outcome of the gate. */
    public sealed interface Admission {
        /** Proceed; {@code attemptNumber} is the attempt a failure of this evaluation would be recorded as. */
        record Proceed(int attemptNumber) implements Admission {}

        /** Skip; {@code retryAfterSeconds} is 0 unless only the backoff stands in the way. */
        record Skip(String reason, long retryAfterSeconds) implements Admission {}
    }

    /** Whether {@code log} (absent when the date has none yet) lets a non-replay pass without the pipeline's policy. */
    public static Optional<Admission> withoutPolicy(Optional<RunLog> log, boolean replay) {
        if (log.isEmpty()) {
            return Optional.of(new Admission.Proceed(1));
        }
        if (log.get().status() == RunLogStatus.COMPLETED && !replay) {
            return Optional.of(new Admission.Skip("already completed", 0));
        }
        return Optional.empty();
    }

    /**
     * Judges {@code log} under {@code policy} at {@code now}. A replay (an operator's rerun or a late-arrival rerun,
     * already bounded by the daily rerun budget) is an explicit request to process the day again: it passes a
     * completed day, a non-retryable failure and exhausted attempts, and only the backoff still applies to it.
     */
    public static Admission admit(Optional<RunLog> log, RetryPolicy policy, boolean replay, Instant now) {
        Optional<Admission> early = withoutPolicy(log, replay);
        if (early.isPresent()) {
            return early.get();
        }
        RunLog current = log.orElseThrow();
        int used = AttemptLedger.attemptsUsed(current);
        Optional<RetryAttempt> last = AttemptLedger.lastAttempt(current);
        if (!replay
                && last.isPresent()
                && !AttemptLedger.retryableAcrossExecutions(policy, last.get().failureCategory())) {
            return new Admission.Skip("non-retryable failure (" + last.get().failureCategory() + ")", 0);
        }
        if (!replay && used >= policy.maxAttempts()) {
            return new Admission.Skip("max attempts exceeded (" + used + " of " + policy.maxAttempts() + ")", 0);
        }
        if (last.isPresent()) {
            long wait = AttemptLedger.secondsUntilRetry(policy, used, last.get(), now);
            if (wait > 0) {
                return new Admission.Skip("backoff period", wait);
            }
        }
        return new Admission.Proceed(used + 1);
    }
}
