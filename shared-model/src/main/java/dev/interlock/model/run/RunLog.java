package dev.interlock.model.run;

import dev.interlock.model.json.Frozen;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;

/**
 * The durable record of one (pipeline, date, schedule): did it run, how often it failed, and why (docs/table-design.md). Attempts are
 * counted by {@link AttemptLedger}, which also builds the next entry; updates preserve {@code attemptNumber} and
 * {@code retryHistory}.
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
}
