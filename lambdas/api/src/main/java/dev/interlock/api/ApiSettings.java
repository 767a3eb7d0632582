package dev.interlock.api;

import dev.interlock.deps.Environment;
import dev.interlock.model.runtime.EnvVar;

/**
 * What the API is configured with.
 *
 * @param commandTriggerAllowed true only in the local runtime: a {@code command} trigger runs a program on this machine
 * @param maxReruns             reruns allowed per pipeline, schedule and day ({@code MAX_RERUNS_PER_DAY})
 * @param staleMarkerDays       the stream router skips markers older than this; manual evaluations must be newer
 * @param maxBodyBytes          larger request bodies are refused with 413
 */
public record ApiSettings(boolean commandTriggerAllowed, int maxReruns, int staleMarkerDays, int maxBodyBytes) {

    public ApiSettings {
        if (maxReruns < 0 || staleMarkerDays < 0 || maxBodyBytes < 1) {
            throw new IllegalArgumentException("API settings must not be negative: " + maxReruns + ", " + staleMarkerDays
                    + ", " + maxBodyBytes);
        }
    }

    /** The deployed API: no command triggers, limits from the environment, 256 KiB bodies. */
    public static ApiSettings from(Environment environment) {
        return new ApiSettings(false, environment.getInt(EnvVar.MAX_RERUNS_PER_DAY),
                environment.getInt(EnvVar.STALE_MARKER_DAYS), RequestBody.DEFAULT_MAX_BYTES);
    }
}
