package dev.interlock.model.workflow;

import dev.interlock.model.pipeline.RetryPolicy;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.run.RetryAttempt;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunLogStatus;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Attempt counting: the one reading of a run log's retry history that the run-log gate, the logging of results and
 * run naming share. An attempt is a job that was started (or could not be) and failed: the FAILED entries since the
 * last COMPLETED one, so a replayed day starts again. Waiting for data is never an attempt: NOT READY rounds are
 * never written, and a VALIDATION_EXHAUSTED entry records a missed deadline (an SLA matter), not an attempt, so data
 * arriving after its deadline still runs when the next marker comes. The same holds for a wait a required trait's
 * PERMANENT evaluator error stopped (an entry naming the trait): once the evaluator is fixed, the next marker runs. The backoff after attempt n is
 * {@link RetryPolicy#backoff(int)} counted from that failure.
 */
public final class AttemptLedger {

    private AttemptLedger() {}

    /** Whether a history entry used up one of {@code maxAttempts}. */
    public static boolean countsAsAttempt(RetryAttempt entry) {
        return entry.status() == RunLogStatus.FAILED && !entry.endedWait();
    }

    /**
     * The entry that says the day's latest wait for data was stopped by a trait's PERMANENT evaluator error, if that is
     * the run log's latest word.
     */
    public static Optional<RetryAttempt> stoppedWait(RunLog log) {
        List<RetryAttempt> history = log.retryHistory();
        if (history.isEmpty() || log.status() != RunLogStatus.FAILED) {
            return Optional.empty();
        }
        RetryAttempt last = history.getLast();
        return last.trait() != null && last.status() == RunLogStatus.FAILED ? Optional.of(last) : Optional.empty();
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

    /** Attempts counted against {@code maxAttempts} since the last completion. */
    public static int attemptsUsed(RunLog log) {
        return (int) sinceLastCompletion(log).stream()
                .filter(AttemptLedger::countsAsAttempt)
                .count();
    }

    /** The latest counted attempt since the last completion: what the backoff and the retryable check look at. */
    public static Optional<RetryAttempt> lastAttempt(RunLog log) {
        List<RetryAttempt> recent = sinceLastCompletion(log);
        for (int i = recent.size() - 1; i >= 0; i--) {
            if (countsAsAttempt(recent.get(i))) {
                return Optional.of(recent.get(i));
            }
        }
        return Optional.empty();
    }

    /** The entry run {@code runId} already wrote with {@code status}, if any: how repeated writes stay idempotent. */
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

    /** Whether the execution whose attempt {@code attemptsUsed} just failed may retry itself after the backoff. */
    public static boolean retryableInExecution(RetryPolicy policy, FailureCategory category, int attemptsUsed) {
        return category != FailureCategory.VALIDATION_EXHAUSTED && policy.retriesAfter(attemptsUsed, category);
    }

    /**
     * Whether the run log says execution {@code executionName} is between a failed attempt and its retry: its latest
     * write was a failure the execution retries itself ({@link #retryableInExecution}).
     */
    public static boolean retryPending(RunLog log, RetryPolicy policy, String executionName) {
        if (log.status() != RunLogStatus.FAILED
                || executionName == null
                || !executionName.equals(log.executionName())) {
            return false;
        }
        FailureCategory category = log.failureCategory() == null ? FailureCategory.TRANSIENT : log.failureCategory();
        return retryableInExecution(policy, category, attemptsUsed(log));
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

    /**
     * The run log after run {@code runId} (null when no run was created) failed with {@code category}: the failure is
     * appended to the history (once per run: a repeat returns {@code current} unchanged). A counted failure uses up an
     * attempt and makes the day FAILED. A VALIDATION_EXHAUSTED entry uses up none, and on a COMPLETED day (a replay
     * that could not become ready) it leaves the completion standing: the day's data is still what completed it.
     */
    public static RunLog afterFailure(
            Optional<RunLog> current,
            String pipelineId,
            LocalDate date,
            String scheduleId,
            String runId,
            String executionName,
            String message,
            FailureCategory category,
            Instant now) {
        return afterFailure(current, pipelineId, date, scheduleId, runId, executionName, message, category, null, now);
    }

    /**
     * Like {@link #afterFailure(Optional, String, LocalDate, String, String, String, String, FailureCategory, Instant)}
     * for a wait that {@code trait}'s PERMANENT evaluator error stopped (null: a job's failure or a missed deadline),
     * which, like a missed deadline, uses up no attempt.
     */
    public static RunLog afterFailure(
            Optional<RunLog> current,
            String pipelineId,
            LocalDate date,
            String scheduleId,
            String runId,
            String executionName,
            String message,
            FailureCategory category,
            String trait,
            Instant now) {
        return afterFailure(
                current, pipelineId, date, scheduleId, runId, executionName, message, category, trait, List.of(), now);
    }

    /**
     * Like {@link #afterFailure(Optional, String, LocalDate, String, String, String, String, FailureCategory, String,
     * Instant)} for a run that had gone on without {@code proceededWithout} (its readiness rule's deadline fallback):
     * a FAILED day keeps the list; a COMPLETED day that stands keeps what its completion recorded.
     */
    public static RunLog afterFailure(
            Optional<RunLog> current,
            String pipelineId,
            LocalDate date,
            String scheduleId,
            String runId,
            String executionName,
            String message,
            FailureCategory category,
            String trait,
            List<String> proceededWithout,
            Instant now) {
        FailureCategory effective = category == null ? FailureCategory.TRANSIENT : category;
        if (runId != null
                && current.flatMap(l -> entryOf(l, runId, RunLogStatus.FAILED)).isPresent()) {
            return current.get();
        }
        RunLog base = current.orElse(null);
        int used = base == null ? 0 : attemptsUsed(base);
        List<RetryAttempt> history = new ArrayList<>(base == null ? List.of() : base.retryHistory());
        // A missed deadline is recorded under the attempt it was waiting to make, which it does not use up.
        RetryAttempt entry =
                new RetryAttempt(used + 1, RunLogStatus.FAILED, runId, message, effective, now, now, trait);
        history.add(entry);
        boolean counted = countsAsAttempt(entry);
        int attemptNumber = (base == null ? 0 : base.attemptNumber()) + (counted ? 1 : 0);
        if (base != null && base.status() == RunLogStatus.COMPLETED && !counted) {
            return new RunLog(
                    pipelineId,
                    date,
                    scheduleId,
                    RunLogStatus.COMPLETED,
                    attemptNumber,
                    base.runId(),
                    base.executionName(),
                    base.failureMessage(),
                    base.failureCategory(),
                    history,
                    base.alertSent(),
                    base.startedAt(),
                    base.completedAt(),
                    now,
                    base.proceededWithout(),
                    base.forced());
        }
        return new RunLog(
                pipelineId,
                date,
                scheduleId,
                RunLogStatus.FAILED,
                attemptNumber,
                runId,
                executionName,
                message,
                effective,
                history,
                base != null && base.alertSent(),
                base == null ? now : base.startedAt(),
                null,
                now,
                proceededWithout);
    }

    /** The run log after run {@code runId} completed (once per run: a repeat returns {@code current} unchanged). */
    public static RunLog afterCompletion(
            Optional<RunLog> current,
            String pipelineId,
            LocalDate date,
            String scheduleId,
            String runId,
            String executionName,
            Instant now) {
        return afterCompletion(current, pipelineId, date, scheduleId, runId, executionName, List.of(), now);
    }

    /**
     * The run log after run {@code runId} completed having gone on without {@code proceededWithout} (its readiness
     * rule's deadline fallback; empty when it was fully ready), once per run.
     */
    public static RunLog afterCompletion(
            Optional<RunLog> current,
            String pipelineId,
            LocalDate date,
            String scheduleId,
            String runId,
            String executionName,
            List<String> proceededWithout,
            Instant now) {
        if (current.flatMap(l -> entryOf(l, runId, RunLogStatus.COMPLETED)).isPresent()) {
            return current.get();
        }
        RunLog base = current.orElse(null);
        List<RetryAttempt> history = new ArrayList<>(base == null ? List.of() : base.retryHistory());
        history.add(new RetryAttempt(
                (base == null ? 0 : attemptsUsed(base)) + 1, RunLogStatus.COMPLETED, runId, null, null, now, now));
        return new RunLog(
                pipelineId,
                date,
                scheduleId,
                RunLogStatus.COMPLETED,
                base == null ? 0 : base.attemptNumber(),
                runId,
                executionName,
                null,
                null,
                history,
                base != null && base.alertSent(),
                base == null ? now : base.startedAt(),
                now,
                now,
                proceededWithout);
    }
}
