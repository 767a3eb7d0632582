package dev.interlock.model.backfill;

import java.time.Instant;
import java.time.LocalDate;

/**
 * One window of a backfill: a (date, schedule) it runs through its own gate, and what became of it.
 *
 * @param reason        why it is SKIPPED or FAILED, or (PENDING, in a plan) why it would run
 * @param rerunId       the rerun that serves it once started: its progress is the day's
 * @param executionName the execution the rerun's marker starts
 * @param runId         the run that served it, once one did
 */
public record BackfillDay(
        LocalDate date,
        String scheduleId,
        BackfillDayStatus status,
        String reason,
        String rerunId,
        String executionName,
        String runId,
        Instant startedAt,
        Instant endedAt) {

    /**
     * The longest reason kept on a day (the rerun and the events keep the whole of it): 500 days of a backfill stay
     * well inside DynamoDB's 400 KB item.
     */
    public static final int MAX_REASON = 200;

    public BackfillDay {
        if (reason != null && reason.length() > MAX_REASON) {
            reason = reason.substring(0, MAX_REASON - 1) + "…";
        }
    }

    /** A day the backfill will start, with why it runs. */
    public static BackfillDay pending(LocalDate date, String scheduleId, String why) {
        return new BackfillDay(date, scheduleId, BackfillDayStatus.PENDING, why, null, null, null, null, null);
    }

    /** A day the backfill leaves alone, with why. */
    public static BackfillDay skipped(LocalDate date, String scheduleId, String why, Instant now) {
        return new BackfillDay(date, scheduleId, BackfillDayStatus.SKIPPED, why, null, null, null, null, now);
    }

    /** This day started: its rerun and execution. */
    public BackfillDay started(String rerun, String execution, Instant now) {
        return new BackfillDay(date, scheduleId, BackfillDayStatus.RUNNING, null, rerun, execution, null, now, null);
    }

    /** This day ended {@code next} ({@code why} for SKIPPED and FAILED), served by {@code run} (may be null). */
    public BackfillDay ended(BackfillDayStatus next, String why, String run, Instant now) {
        return new BackfillDay(date, scheduleId, next, why, rerunId, executionName, run, startedAt, now);
    }

    /** {@code <date>/<schedule>}: how events and messages name the day. */
    public String label() {
        return date + "/" + scheduleId;
    }
}
