package dev.interlock.model.status;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.interlock.model.json.WireEnum;

/**
 * Where one (pipeline, date, schedule) stands, as a person asks it: is it waiting, blocked, moving, done or off.
 * Derived from the table by {@link StatusDerivation}; never stored.
 */
public enum DayState implements WireEnum {
    /** The schedule's window has not opened yet. */
    WAITING_FOR_WINDOW,
    /** Evaluated (or due to be) and a required trait or an upstream holds it back. */
    NOT_READY,
    /** An execution holds the lock and is evaluating the traits. */
    EVALUATING,
    /** Ready; the job is being started. */
    TRIGGERING,
    /** The job runs and is being polled. */
    RUNNING,
    /** The job completed; the data is watched for late changes until the monitoring window ends. */
    MONITORING,
    /** The day's job completed. */
    COMPLETED,
    /** The day's last attempt failed (a retry may still follow). */
    FAILED,
    /** The date is excluded by the pipeline's days, dates or calendar. */
    EXCLUDED,
    /** Interlock will not run this day (cancelled, or never evaluated and past). */
    SKIPPED,
    /**
     * Forward-only: the window opened before the pipeline (or this schedule) was registered, so the watchdog neither
     * runs it nor alerts its deadline; it runs only when evaluated by hand (or, for the registration day, with
     * {@code catchUp}).
     */
    BEFORE_REGISTRATION,
    /** A dry-run pipeline was ready: what would have been triggered was recorded, nothing was started. */
    DRY_RUN,
    /**
     * The pipeline is paused: no new execution starts for this day until it is resumed (a day already running
     * finishes); resuming is forward-only.
     */
    PAUSED;

    /** How urgently a person should look at a day in this state: the overview shows a pipeline's most urgent one. */
    public int urgency() {
        return switch (this) {
            case FAILED -> 10;
            case NOT_READY -> 9;
            case EVALUATING -> 8;
            case TRIGGERING -> 7;
            case RUNNING -> 6;
            case MONITORING -> 5;
            case WAITING_FOR_WINDOW -> 4;
            case DRY_RUN -> 3;
            // Nothing will run it unless someone asks: above a day Interlock merely skipped, below anything moving.
            case BEFORE_REGISTRATION, PAUSED -> 2;
            case SKIPPED -> 1;
            case COMPLETED, EXCLUDED -> 0;
        };
    }

    @JsonValue
    @Override
    public String wireName() {
        return name();
    }

    /** Reads a wire value; unknown values are rejected with the allowed list. */
    @JsonCreator
    public static DayState fromJson(String raw) {
        return WireEnum.parse(DayState.class, raw, "day state");
    }
}
