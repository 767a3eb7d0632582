package dev.interlock.model.force;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;

/**
 * An operator's word that one (pipeline, date, schedule) is ready whatever its traits say (docs/operations.md,
 * "Forcing a day ready"): the next evaluation of that day, and only that day, triggers without the traits that hold it
 * back, recorded as forced. It lapses at {@code expiresAt}.
 *
 * @param forcedBy  the caller that forced it (an IAM principal on AWS, {@code local} locally)
 * @param forcedAt  when
 * @param expiresAt after this an evaluation no longer reads it (by default {@link #defaultExpiry})
 */
public record ForceReady(
        String pipelineId,
        LocalDate date,
        String scheduleId,
        String reason,
        String forcedBy,
        Instant forcedAt,
        Instant expiresAt) {

    /** The longest reason. */
    public static final int MAX_REASON = 500;

    /**
     * When a force without {@code expiresAt} lapses: the end of the day after {@code date} in UTC, so it outlives the
     * day's window in any zone and an evaluation a little late still reads it.
     */
    public static Instant defaultExpiry(LocalDate date) {
        return date.plusDays(2).atStartOfDay(ZoneOffset.UTC).toInstant();
    }

    /** Whether it still applies at {@code now}. */
    public boolean activeAt(Instant now) {
        return now.isBefore(expiresAt);
    }

    /** What the run and the run log of the day it started carry. */
    public Forced forced() {
        return new Forced(forcedBy, reason, forcedAt);
    }
}
