package dev.interlock.orchestrator;

import dev.interlock.model.pipeline.MonitoringConfig;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.schedule.TimeSpan;
import dev.interlock.model.workflow.ExecutionBudget;

/**
 * The resolved waits and limits of one pipeline for one execution (the values the Wait states and loops read),
 * kept inside the execution timeout.
 *
 * @param pollLimit                 polls of the poll window (after it a running job is reported overdue)
 * @param maxJobDurationSeconds     how long the job is followed before it is cancelled
 * @param monitoringDurationSeconds 0 when monitoring is disabled
 */
public record PipelineTuning(
        int evaluationIntervalSeconds,
        int pollIntervalSeconds,
        int pollLimit,
        int maxJobDurationSeconds,
        boolean monitoringEnabled,
        int monitoringIntervalSeconds,
        long monitoringDurationSeconds) {

    /** Wait between monitoring rounds when the duration allows it. */
    public static final int DEFAULT_MONITORING_INTERVAL_SECONDS = 300;
    /** Time kept free at the end of an execution for logging, cascade and releasing the lock. */
    public static final int SAFETY_MARGIN_SECONDS = ExecutionBudget.SAFETY_MARGIN_SECONDS;

    /**
     * The tuning of {@code config} under an execution timeout. The poll window and the followed job each take at most
     * half the timeout, so evaluation always keeps the other half; an unparsable monitoring duration is an
     * {@link IllegalArgumentException} naming the field.
     */
    public static PipelineTuning of(PipelineConfig config, int executionTimeoutSeconds) {
        int evaluationInterval = Math.max(1, config.evaluationIntervalSeconds());
        int pollInterval = pollInterval(config);
        int pollLimit = pollLimit(config, executionTimeoutSeconds);
        int maxJobDuration = ExecutionBudget.maxJobDurationSeconds(config, executionTimeoutSeconds);
        MonitoringConfig monitoring = config.monitoring();
        if (!monitoring.enabled()) {
            return new PipelineTuning(
                    evaluationInterval,
                    pollInterval,
                    pollLimit,
                    maxJobDuration,
                    false,
                    DEFAULT_MONITORING_INTERVAL_SECONDS,
                    0);
        }
        long duration;
        try {
            duration = TimeSpan.parse(monitoring.duration()).getSeconds();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("monitoring.duration: " + e.getMessage(), e);
        }
        if (duration < 1) {
            throw new IllegalArgumentException("monitoring.duration must be positive when monitoring is enabled");
        }
        // A window shorter than the default interval still gets a round inside it.
        int interval = (int) Math.min(DEFAULT_MONITORING_INTERVAL_SECONDS, duration);
        return new PipelineTuning(
                evaluationInterval, pollInterval, pollLimit, maxJobDuration, true, interval, duration);
    }

    /** Wait before each poll, at least a second. */
    public static int pollInterval(PipelineConfig config) {
        return Math.max(1, config.pollIntervalSeconds());
    }

    /** Polls of the poll window, clamped so the window is at most half the execution timeout. */
    public static int pollLimit(PipelineConfig config, int executionTimeoutSeconds) {
        int pollBudget = Math.max(1, executionTimeoutSeconds / 2);
        return Math.max(1, Math.min(config.pollLimit(), pollBudget / pollInterval(config)));
    }
}
