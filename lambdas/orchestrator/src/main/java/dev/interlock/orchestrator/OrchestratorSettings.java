package dev.interlock.orchestrator;

import dev.interlock.model.runtime.EnvVar;
import dev.interlock.model.runtime.Environment;
import java.time.Duration;

/**
 * The orchestrator's configuration, read once from the environment.
 *
 * @param executionTimeoutSeconds the state machine's TimeoutSeconds; locks outlive it, runs older than it are stuck
 * @param maxRerunsPerDay         late-arrival reruns allowed per (pipeline, date, schedule)
 * @param retentionDays           how far back the watchdog looks for stuck runs (older runs have expired anyway)
 */
public record OrchestratorSettings(int executionTimeoutSeconds, int maxRerunsPerDay, int retentionDays) {

    /** A lock outlives the execution by this much, so an execution that dies still blocks a second one for a while. */
    public static final int LOCK_MARGIN_SECONDS = 1800;

    public OrchestratorSettings {
        if (executionTimeoutSeconds < 1) {
            throw new IllegalArgumentException(
                    "EXECUTION_TIMEOUT_SECONDS must be positive: " + executionTimeoutSeconds);
        }
        if (maxRerunsPerDay < 0) {
            throw new IllegalArgumentException("MAX_RERUNS_PER_DAY must not be negative: " + maxRerunsPerDay);
        }
        if (retentionDays < 1) {
            throw new IllegalArgumentException("RETENTION_DAYS must be positive: " + retentionDays);
        }
    }

    /** The settings of a deployed function. */
    public static OrchestratorSettings from(Environment environment) {
        return new OrchestratorSettings(
                environment.getInt(EnvVar.EXECUTION_TIMEOUT_SECONDS),
                environment.getInt(EnvVar.MAX_RERUNS_PER_DAY),
                environment.getInt(EnvVar.RETENTION_DAYS));
    }

    /**
     * The lock TTL for an execution that says its timeout is {@code requestedTimeoutSeconds}: the larger of that and
     * the configured timeout, plus the margin, so the lock can never expire under a live execution.
     */
    public Duration lockTtl(int requestedTimeoutSeconds) {
        return Duration.ofSeconds(
                (long) Math.max(requestedTimeoutSeconds, executionTimeoutSeconds) + LOCK_MARGIN_SECONDS);
    }
}
