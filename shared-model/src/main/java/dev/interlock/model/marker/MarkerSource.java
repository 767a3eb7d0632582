package dev.interlock.model.marker;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.interlock.model.json.WireEnum;

/** Who wrote a marker; part of the marker sort key and passed to the execution as markerSource. */
public enum MarkerSource implements WireEnum {
    CASCADE("cascade"),
    SCHEDULE("schedule"),
    MANUAL("manual"),
    LATE_ARRIVAL("late-arrival"),
    RERUN("rerun"),
    RETRY("retry"),
    DEFERRED("deferred"),
    /** A wait on NOT READY that outlasts its execution's time budget, continued by a successor execution. */
    CONTINUATION("continuation"),
    /**
     * Monitoring after completion that outlasts its execution's time budget, continued by a successor execution that
     * carries the monitored run, its traits and its baseline ({@link Marker#carried()}).
     */
    MONITORING("monitoring"),
    SENSOR("sensor"),
    /**
     * One day of an operator's backfill ({@code dev.interlock.model.backfill.Backfill}): a replay whose rerun does not
     * spend the rerun budget.
     */
    BACKFILL("backfill"),
    EXTERNAL("external");

    private final String wireName;

    MarkerSource(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    @Override
    public String wireName() {
        return wireName;
    }

    /**
     * Whether a marker of this source carries on work an execution already started for its day (a wait on NOT READY,
     * monitoring): it is never stale, however old its day.
     */
    public boolean continuesAnExecution() {
        return this == CONTINUATION || this == MONITORING;
    }

    /** Reads a wire value; unknown values are rejected with the allowed list. */
    @JsonCreator
    public static MarkerSource fromJson(String raw) {
        return WireEnum.parse(MarkerSource.class, raw, "marker source");
    }
}
