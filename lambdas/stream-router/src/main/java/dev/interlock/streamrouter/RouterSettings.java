package dev.interlock.streamrouter;

import dev.interlock.model.runtime.EnvVar;
import dev.interlock.model.runtime.Environment;

/**
 * What the stream router is configured with: the state machine it starts and how old a marker may be.
 *
 * @param staleMarkerDays markers dated more than this many days before today (UTC) are skipped unless they replay
 */
public record RouterSettings(String stateMachineArn, int staleMarkerDays) {

    public RouterSettings {
        if (stateMachineArn == null || stateMachineArn.isBlank()) {
            throw new IllegalArgumentException(EnvVar.STATE_MACHINE_ARN.name() + " is required");
        }
        if (staleMarkerDays < 0) {
            throw new IllegalArgumentException(
                    EnvVar.STALE_MARKER_DAYS.name() + " must not be negative: " + staleMarkerDays);
        }
    }

    /** Reads {@code STATE_MACHINE_ARN} and {@code STALE_MARKER_DAYS} (default 2). */
    public static RouterSettings from(Environment environment) {
        return new RouterSettings(
                environment.get(EnvVar.STATE_MACHINE_ARN), environment.getInt(EnvVar.STALE_MARKER_DAYS));
    }
}
