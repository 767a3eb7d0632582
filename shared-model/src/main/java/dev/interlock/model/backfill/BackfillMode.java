package dev.interlock.model.backfill;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.interlock.model.json.WireEnum;

/** Which days of the range a backfill runs. */
public enum BackfillMode implements WireEnum {
    /** days never completed (no run log, or one that is not COMPLETED). */
    MISSING("missing"),
    /** days whose last run FAILED. */
    FAILED("failed"),
    /** every day, completed or not. */
    ALL("all");

    private final String wireName;

    BackfillMode(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    @Override
    public String wireName() {
        return wireName;
    }

    /** Reads a wire value; unknown values are rejected with the allowed list. */
    @JsonCreator
    public static BackfillMode fromJson(String raw) {
        return WireEnum.parse(BackfillMode.class, raw, "backfill mode");
    }
}
