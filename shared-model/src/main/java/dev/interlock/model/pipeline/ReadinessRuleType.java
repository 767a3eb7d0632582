package dev.interlock.model.pipeline;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.interlock.model.json.WireEnum;

/** How trait results combine into readiness (docs/pipeline-reference.md, "Readiness rules"). */
public enum ReadinessRuleType implements WireEnum {
    /** Every required trait passes. */
    ALL_REQUIRED_PASS("all-required-pass"),
    /** One of the rule's listed traits passes (and every required trait outside the list). */
    ANY("any"),
    /** At least {@code count} of the rule's listed traits pass (and every required trait outside the list). */
    AT_LEAST("at-least");

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
