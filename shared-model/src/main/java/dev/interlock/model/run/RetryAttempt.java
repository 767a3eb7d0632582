package dev.interlock.model.run;

import java.time.Instant;

/**
 * One failed (or finished) attempt kept in a run log's retry history.
 *
 * @param trait the required trait whose PERMANENT evaluator error ended the wait for data (null for every other
 *     entry): such an entry, like a missed validation deadline, records why the day stopped waiting, not an attempt
 */
public record RetryAttempt(
        int attempt,
        RunLogStatus status,
        String runId,
        String failureMessage,
        FailureCategory failureCategory,
        Instant startedAt,
        Instant completedAt,
        String trait) {

    /** An entry of a job's attempt (or of a missed deadline): no trait stopped the wait. */
    public RetryAttempt(
            int attempt,
            RunLogStatus status,
            String runId,
            String failureMessage,
            FailureCategory failureCategory,
            Instant startedAt,
            Instant completedAt) {
        this(attempt, status, runId, failureMessage, failureCategory, startedAt, completedAt, null);
    }

    /** Whether this entry records the end of a wait for data (a missed deadline or a trait's PERMANENT error). */
    public boolean endedWait() {
        return status == RunLogStatus.FAILED
                && (failureCategory == FailureCategory.VALIDATION_EXHAUSTED || trait != null);
    }
}
