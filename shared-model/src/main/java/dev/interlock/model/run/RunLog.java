package dev.interlock.model.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.interlock.model.force.Forced;
import dev.interlock.model.json.Frozen;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;

/**
 * The durable record of one (pipeline, date, schedule): did it run, how often it failed, and why (docs/table-design.md). Attempts are
 * counted by {@code dev.interlock.model.workflow.AttemptLedger}, which also builds the next entry; updates preserve {@code attemptNumber} and
 * {@code retryHistory}.
 *
 * @param proceededWithout the traits the run that last ended proceeded without, past its readiness rule's
 *     {@code proceedAt} (empty when it ran fully ready; absent from the JSON then, as in run logs written before)
 * @param forced who forced the day ready and why, when the run that last ended started only because of that (null
 *     otherwise; absent from the JSON then); {@code proceededWithout} then lists the traits that held it back
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
        Instant updatedAt,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> proceededWithout,
        @JsonInclude(JsonInclude.Include.NON_NULL) Forced forced) {
    public RunLog {
        retryHistory = Frozen.list(retryHistory);
        proceededWithout = Frozen.list(proceededWithout);
    }

    /** A run log whose latest run was not forced. */
    public RunLog(
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
            Instant updatedAt,
            List<String> proceededWithout) {
        this(
                pipelineId,
                date,
                scheduleId,
                status,
                attemptNumber,
                runId,
                executionName,
                failureMessage,
                failureCategory,
                retryHistory,
                alertSent,
                startedAt,
                completedAt,
                updatedAt,
                proceededWithout,
                null);
    }

    /**
     * This run log saying that its latest run started because the day was forced ready ({@code forced}; null: it was
     * not): what a run's end copies from the run.
     */
    public RunLog withForced(Forced forced) {
        return java.util.Objects.equals(forced, this.forced)
                ? this
                : new RunLog(
                        pipelineId,
                        date,
                        scheduleId,
                        status,
                        attemptNumber,
                        runId,
                        executionName,
                        failureMessage,
                        failureCategory,
                        retryHistory,
                        alertSent,
                        startedAt,
                        completedAt,
                        updatedAt,
                        proceededWithout,
                        forced);
    }

    /** A run log whose latest run was fully ready. */
    public RunLog(
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
        this(
                pipelineId,
                date,
                scheduleId,
                status,
                attemptNumber,
                runId,
                executionName,
                failureMessage,
                failureCategory,
                retryHistory,
                alertSent,
                startedAt,
                completedAt,
                updatedAt,
                List.of());
    }
}
