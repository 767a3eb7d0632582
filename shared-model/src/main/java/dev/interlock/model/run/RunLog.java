package dev.interlock.model.run;

import dev.interlock.model.json.Frozen;

import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * The durable record of one (pipeline, date, schedule): did it run, how often it failed, and why (R§7.2). Only
 * terminal failures count as attempts; updates preserve {@code attemptNumber} and {@code retryHistory}.
 */
public record RunLog(
        String pipelineId,
        LocalDate date,
        String scheduleId,
        RunLogStatus status,
        int attemptNumber,
        String runId,
        String executionName,
        String failureMessage,
        FailureCategory failureCategory,
        List<RetryAttempt> retryHistory,
        boolean alertSent,
        Instant startedAt,
        Instant completedAt,
        Instant updatedAt) {
    public RunLog {
        retryHistory = Frozen.list(retryHistory);
    }

    /** The run log of a (pipeline, date, schedule) seen for the first time: evaluating, no attempt used yet. */
    public static RunLog first(String pipelineId, LocalDate date, String scheduleId, String runId, String executionName,
                               Instant now) {
        return new RunLog(pipelineId, date, scheduleId, RunLogStatus.PENDING, 0, runId, executionName, null, null,
                List.of(), false, now, null, now);
    }

    /** Evaluated but not ready: not an attempt, so {@code attemptNumber} and history are kept. */
    public RunLog pending(String runId, String executionName, Instant now) {
        return new RunLog(pipelineId, date, scheduleId, RunLogStatus.PENDING, attemptNumber, runId, executionName,
                failureMessage, failureCategory, retryHistory, alertSent, startedAt, completedAt, now);
    }

    /** The job was started and is being followed. */
    public RunLog running(String runId, String executionName, Instant now) {
        return new RunLog(pipelineId, date, scheduleId, RunLogStatus.RUNNING, attemptNumber, runId, executionName,
                null, null, retryHistory, alertSent, now, null, now);
    }

    /** The job finished successfully; earlier failures stay in the history. */
    public RunLog completed(String runId, Instant now) {
        return new RunLog(pipelineId, date, scheduleId, RunLogStatus.COMPLETED, attemptNumber, runId, executionName,
                null, null, retryHistory, alertSent, startedAt, now, now);
    }

    /** A terminal failure: the only thing that uses up an attempt; it is appended to the retry history. */
    public RunLog failed(String runId, String message, FailureCategory category, Instant now) {
        FailureCategory effective = category == null ? FailureCategory.TRANSIENT : category;
        int attempt = attemptNumber + 1;
        List<RetryAttempt> history = new ArrayList<>(retryHistory);
        history.add(new RetryAttempt(attempt, RunLogStatus.FAILED, runId, message, effective, startedAt, now));
        return new RunLog(pipelineId, date, scheduleId, RunLogStatus.FAILED, attempt, runId, executionName, message,
                effective, history, alertSent, startedAt, now, now);
    }
}
