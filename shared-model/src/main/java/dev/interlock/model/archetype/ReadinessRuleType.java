package dev.interlock.model.archetype;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.interlock.model.json.WireEnum;

/** How trait results combine into readiness; only all-required-pass exists. */
public enum ReadinessRuleType implements WireEnum {
    ALL_REQUIRED_PASS("all-required-pass");

    private final String wireName;

    ReadinessRuleType(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    @Override
    public String wireName() {
        return wireName;
    }

    /** Reads a wire value; unknown values are rejected with the allowed list. */
    @JsonCreator
    public static ReadinessRuleType fromJson(String raw) {
        return WireEnum.parse(ReadinessRuleType.class, raw, "readinessRule.type");
    }
}
