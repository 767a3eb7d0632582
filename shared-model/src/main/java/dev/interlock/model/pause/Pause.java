package dev.interlock.model.pause;

import dev.interlock.model.schedule.ReadableTime;
import java.time.Instant;
import java.time.ZoneId;

/**
 * A pipeline an operator has paused (docs/operations.md, "Pausing a pipeline"): no new execution starts for it until it
 * is resumed. Markers and sensor arrivals meanwhile are recorded as {@code MARKER_SKIPPED} (status {@code PAUSED})
 * with this reason; days already running finish. Resuming is forward-only: the windows that opened while it was paused
 * are listed, not run.
 *
 * @param pipelineId the paused pipeline
 * @param reason     why, for whoever wonders why nothing runs
 * @param pausedBy   the caller that paused it (an IAM principal on AWS, {@code local} locally)
 * @param pausedAt   when
 */
public record Pause(String pipelineId, String reason, String pausedBy, Instant pausedAt) {

    /** The longest reason. */
    public static final int MAX_REASON = 500;

    /** One line for the trail: {@code paused since <UTC instant> by …: reason}. */
    public String describe() {
        return "paused since " + pausedAt + " by " + pausedBy + ": " + reason;
    }

    /** One line a person reads, the time in {@code zone} with its offset: {@code paused since 2026-03-10 06:00 -08:00 …}. */
    public String describe(ZoneId zone) {
        return "paused since " + ReadableTime.of(pausedAt, zone) + " by " + pausedBy + ": " + reason;
    }
}
