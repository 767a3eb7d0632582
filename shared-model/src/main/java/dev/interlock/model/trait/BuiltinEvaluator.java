package dev.interlock.model.trait;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.interlock.model.json.WireEnum;

/** The evaluators that ship in the evaluator Lambda, addressed as {@code builtin:<name>} (SPEC §8). */
public enum BuiltinEvaluator implements WireEnum {
    UPSTREAM_RUN_LOG("upstream-run-log"),
    SENSOR_THRESHOLD("sensor-threshold"),
    SENSOR_FRESHNESS("sensor-freshness"),
    ALWAYS_PASS("always-pass"),
    ALWAYS_FAIL("always-fail");

    private final String wireName;

    BuiltinEvaluator(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    @Override
    public String wireName() {
        return wireName;
    }

    /** Reads a builtin name; unknown names are rejected with the allowed list. */
    @JsonCreator
    public static BuiltinEvaluator fromJson(String raw) {
        return WireEnum.parse(BuiltinEvaluator.class, raw, "builtin evaluator");
    }
}
