package dev.interlock.model.backfill;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.interlock.model.json.WireEnum;

/** Which end of the range a backfill starts at. */
public enum BackfillOrder implements WireEnum {
    /** the earliest day first. */
    OLDEST("oldest"),
    /** the latest day first. */
    NEWEST("newest");

    private final String wireName;

    BackfillOrder(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    @Override
    public String wireName() {
        return wireName;
    }

    /** Reads a wire value; unknown values are rejected with the allowed list. */
    @JsonCreator
    public static BackfillOrder fromJson(String raw) {
        return WireEnum.parse(BackfillOrder.class, raw, "backfill order");
    }
}
