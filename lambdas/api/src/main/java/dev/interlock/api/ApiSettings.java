package dev.interlock.api;

import dev.interlock.model.runtime.EnvVar;
import dev.interlock.model.runtime.Environment;
import dev.interlock.model.secret.OutboundPolicy;

/**
 * What the API is configured with.
 *
 * @param maxReruns       reruns allowed per pipeline, schedule and day ({@code MAX_RERUNS_PER_DAY})
 * @param staleMarkerDays the stream router skips markers older than this; manual evaluations must be newer
 * @param maxBodyBytes    larger request bodies are refused with 413
 * @param outbound        which credentials pipelines may name and where they may send them
 */
public record ApiSettings(int maxReruns, int staleMarkerDays, int maxBodyBytes, OutboundPolicy outbound) {

    public ApiSettings {
        if (maxReruns < 0 || staleMarkerDays < 0 || maxBodyBytes < 1) {
            throw new IllegalArgumentException(
                    "API settings must not be negative: " + maxReruns + ", " + staleMarkerDays + ", " + maxBodyBytes);
        }
        outbound = outbound == null ? OutboundPolicy.NONE : outbound;
    }

    /** Settings for a deployment that lets no credential be named ({@link OutboundPolicy#NONE}). */
    public ApiSettings(int maxReruns, int staleMarkerDays, int maxBodyBytes) {
        this(maxReruns, staleMarkerDays, maxBodyBytes, OutboundPolicy.NONE);
    }

    /**
     * The deployed API: limits and the outbound policy from the environment, 256 KiB bodies.
     *
     * @throws IllegalStateException naming a malformed policy variable
     */
    public static ApiSettings from(Environment environment) {
        OutboundPolicy outbound;
        try {
            outbound = OutboundPolicy.fromEnvironment(v -> environment.find(v).orElse(null));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
        return new ApiSettings(
                environment.getInt(EnvVar.MAX_RERUNS_PER_DAY),
                environment.getInt(EnvVar.STALE_MARKER_DAYS),
                RequestBody.DEFAULT_MAX_BYTES,
                outbound);
    }
}
