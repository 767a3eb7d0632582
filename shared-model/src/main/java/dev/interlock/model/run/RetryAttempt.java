package dev.interlock.model.run;

import java.time.Instant;

/** One failed (or finished) attempt kept in a run log's retry history. */
public record RetryAttempt(
        int attempt,
        RunLogStatus status,
        String runId,
        String failureMessage,
        FailureCategory failureCategory,
        Instant startedAt,
        Instant completedAt) {}
