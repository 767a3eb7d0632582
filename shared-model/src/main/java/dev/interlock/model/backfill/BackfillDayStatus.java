package dev.interlock.model.backfill;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.interlock.model.json.WireEnum;

/**
 * Where one day (one window) of a backfill is: PENDING until the backfill starts it, RUNNING while its execution holds
 * or waits for the day, then COMPLETED, FAILED or SKIPPED (with the reason: excluded, running already, not in the
 * mode, cancelled, or whatever its own gate said).
 */
public enum BackfillDayStatus implements WireEnum {
    PENDING("PENDING"),
    RUNNING("RUNNING"),
    COMPLETED("COMPLETED"),
    FAILED("FAILED"),
    SKIPPED("SKIPPED");

    private final String wireName;

    BackfillDayStatus(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    @Override
    public String wireName() {
        return wireName;
    }

    /** Whether the day's outcome is known. */
    public boolean isTerminal() {
        return this == COMPLETED || this == FAILED || this == SKIPPED;
    }

    /** Reads a wire value; unknown values are rejected with the allowed list. */
    @JsonCreator
    public static BackfillDayStatus fromJson(String raw) {
        return WireEnum.parse(BackfillDayStatus.class, raw, "backfill day status");
    }
}
