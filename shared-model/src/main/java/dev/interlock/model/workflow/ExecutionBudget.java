package dev.interlock.model.workflow;

import dev.interlock.model.pipeline.PipelineConfig;
import java.time.Instant;
import java.util.Objects;

/**
 * The time one state-machine execution has: it started at {@code start} and Step Functions ends it after
 * {@code timeoutSeconds} (States.Timeout, which would leave its run RUNNING and its lock held). Every loop of the
 * execution — waiting for readiness, following a job, retrying, waiting for a lock — keeps inside {@link #end()}, and
 * what does not fit is handed to a new execution instead.
 *
 * @param timeoutSeconds the state machine's TimeoutSeconds
 */
public record ExecutionBudget(Instant start, int timeoutSeconds) {

    /** Time kept free at the end of an execution for logging the outcome, the cascade and releasing the lock. */
    public static final int SAFETY_MARGIN_SECONDS = 900;

    public ExecutionBudget {
        Objects.requireNonNull(start, "start");
        if (timeoutSeconds < 1) {
            throw new IllegalArgumentException("timeoutSeconds must be positive: " + timeoutSeconds);
        }
    }

    /** The last moment the execution may still be busy (polling, waiting); after it only its ending fits. */
    public Instant end() {
        Instant end = start.plusSeconds(timeoutSeconds - SAFETY_MARGIN_SECONDS);
        return end.isBefore(start) ? start : end;
    }

    /**
     * The latest moment an attempt may trigger the job and still follow it for the pipeline's whole maximum job
     * duration: waiting for readiness stops here unless the SLA says earlier (the default validation deadline), and a
     * retry whose backoff ends later is handed to a new execution.
     */
    public Instant latestTrigger(PipelineConfig config) {
        Instant latest = end().minusSeconds(followSeconds(config, timeoutSeconds));
        return latest.isBefore(start) ? start : latest;
    }

    /**
     * The maximum job duration an execution can honour: the configured one, but at most half the execution (the other
     * half is for waiting on readiness, retries and the ending); at least one poll interval.
     */
    public static int maxJobDurationSeconds(PipelineConfig config, int timeoutSeconds) {
        int interval = Math.max(1, config.pollIntervalSeconds());
        return Math.max(interval, Math.min(config.maxJobDurationSeconds(), timeoutSeconds / 2));
    }

    /**
     * Time following one job may take: nothing for synchronous triggers (they finish inside the trigger call), else
     * the maximum job duration plus the two polls that notice it and confirm the cancelled job stopped.
     */
    public static long followSeconds(PipelineConfig config, int timeoutSeconds) {
        if (config.trigger() != null && config.trigger().type().synchronous()) {
            return 0;
        }
        return maxJobDurationSeconds(config, timeoutSeconds) + 2L * Math.max(1, config.pollIntervalSeconds());
    }
}
