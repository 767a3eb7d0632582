package dev.interlock.model.trait;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.interlock.model.json.WireEnum;

/** Outcome of one trait evaluation; ERROR means the evaluator itself failed (never a silent FAIL). */
public enum TraitStatus implements WireEnum {
    PASS("PASS"),
    FAIL("FAIL"),
    STALE("STALE"),
    ERROR("ERROR");

    private final String wireName;

    TraitStatus(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    @Override
    public String wireName() {
        return wireName;
    }

    /** Reads a wire value; unknown values are rejected with the allowed list. */
    @JsonCreator
    public static TraitStatus fromJson(String raw) {
        return WireEnum.parse(TraitStatus.class, raw, "trait status");
    }
}
