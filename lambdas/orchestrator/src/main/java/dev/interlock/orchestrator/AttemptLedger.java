package dev.interlock.orchestrator;

import dev.interlock.model.pipeline.RetryPolicy;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.run.RetryAttempt;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunLogStatus;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Reads a run log's retry history the one way {@code checkRunLog} and {@code logResult} must agree on: attempts are
 * the FAILED entries since the last COMPLETED one (so a replayed day starts again), and the backoff after attempt n
 * is {@link RetryPolicy#backoff(int)} counted from that failure.
 */
public final class AttemptLedger {

    private AttemptLedger() {
    }

    /** The history entries since the last completion (all of them when the day never completed). */
    public static List<RetryAttempt> sinceLastCompletion(RunLog log) {
        List<RetryAttempt> history = log.retryHistory();
        for (int i = history.size() - 1; i >= 0; i--) {
            if (history.get(i).status() == RunLogStatus.COMPLETED) {
                return history.subList(i + 1, history.size());
            }
        }
        return history;
    }

    /** Terminal failures counted against {@code maxAttempts}; NOT READY evaluations are never in the history. */
    public static int attemptsUsed(RunLog log) {
        return (int) sinceLastCompletion(log).stream().filter(a -> a.status() == RunLogStatus.FAILED).count();
    }

    /** The latest failure since the last completion, if the latest attempt failed. */
    public static Optional<RetryAttempt> lastFailure(RunLog log) {
        List<RetryAttempt> recent = sinceLastCompletion(log);
        if (recent.isEmpty()) {
            return Optional.empty();
        }
        RetryAttempt last = recent.get(recent.size() - 1);
        return last.status() == RunLogStatus.FAILED ? Optional.of(last) : Optional.empty();
    }

    /** The entry this run already wrote with {@code status}, if any: how repeated calls stay idempotent. */
    public static Optional<RetryAttempt> entryOf(RunLog log, String runId, RunLogStatus status) {
        return log.retryHistory().stream()
                .filter(a -> a.status() == status && runId != null && runId.equals(a.runId()))
                .reduce((first, second) -> second);
    }

    /**
     * Whether a failure of {@code category} may be retried by a later attempt at all. VALIDATION_EXHAUSTED is never
     * retried inside the execution that hit its deadline, but a later marker (new data) may try again.
     */
    public static boolean retryableAcrossExecutions(RetryPolicy policy, FailureCategory category) {
        return category == FailureCategory.VALIDATION_EXHAUSTED || policy.isRetryable(category);
    }

    /** Whether the execution that just failed may retry itself after waiting the backoff. */
    public static boolean retryableInExecution(RetryPolicy policy, FailureCategory category, int attemptsUsed) {
        return category != FailureCategory.VALIDATION_EXHAUSTED && policy.retriesAfter(attemptsUsed, category);
    }

    /** Seconds still to wait after {@code failure} (attempt {@code attemptsUsed}) at {@code now}; 0 when elapsed. */
    public static long secondsUntilRetry(RetryPolicy policy, int attemptsUsed, RetryAttempt failure, Instant now) {
        Instant failedAt = failure.completedAt() != null ? failure.completedAt() : failure.startedAt();
        if (failedAt == null) {
            return 0;
        }
        Instant retryAt = failedAt.plus(policy.backoff(attemptsUsed));
        if (!now.isBefore(retryAt)) {
            return 0;
        }
        Duration remaining = Duration.between(now, retryAt);
        // Round up: answering 0 while still inside the backoff would invite a retry that is refused again.
        return remaining.getSeconds() + (remaining.getNano() > 0 ? 1 : 0);
    }
}
