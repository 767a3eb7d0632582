package dev.interlock.model.trait;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.interlock.model.json.JsonPath;
import dev.interlock.model.json.WireEnum;
import dev.interlock.model.validation.ValidationError;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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

    /** Comparison operators of {@code sensor-threshold}. */
    public static final List<String> THRESHOLD_OPERATORS = List.of("gt", "gte", "lt", "lte", "eq");

    /**
     * What is wrong with {@code config} for this builtin (paths below {@code configPath}); evaluated on the
     * resolved config, so archetype defaults count. The evaluator applies the same rules at run time.
     */
    public List<ValidationError> configErrors(Map<String, Object> config, String configPath) {
        List<ValidationError> errors = new ArrayList<>();
        switch (this) {
            case UPSTREAM_RUN_LOG -> requireText(config, "upstreamPipeline", configPath, errors);
            case SENSOR_THRESHOLD -> {
                requireText(config, "sensor", configPath, errors);
                requireText(config, "field", configPath, errors);
                Object op = config.get("op");
                if (!(op instanceof String text) || !THRESHOLD_OPERATORS.contains(text)) {
                    errors.add(new ValidationError(JsonPath.field(configPath, "op"),
                            "op must be one of " + String.join(", ", THRESHOLD_OPERATORS) + ", got " + op));
                }
                if (!(config.get("value") instanceof Number)) {
                    errors.add(new ValidationError(JsonPath.field(configPath, "value"), "value must be a number"));
                }
            }
            case SENSOR_FRESHNESS -> {
                requireText(config, "sensor", configPath, errors);
                if (!(config.get("maxAgeSeconds") instanceof Number age) || age.doubleValue() <= 0) {
                    errors.add(new ValidationError(JsonPath.field(configPath, "maxAgeSeconds"), "maxAgeSeconds must be a positive number"));
                }
            }
            case ALWAYS_PASS, ALWAYS_FAIL -> {
                // Demo and test evaluators: no configuration.
            }
        }
        return errors;
    }

    private static void requireText(Map<String, Object> config, String key, String configPath, List<ValidationError> errors) {
        if (!(config.get(key) instanceof String text) || text.isBlank()) {
            errors.add(new ValidationError(JsonPath.field(configPath, key), key + " is required"));
        }
    }

    /** Reads a builtin name; unknown names are rejected with the allowed list. */
    @JsonCreator
    public static BuiltinEvaluator fromJson(String raw) {
        return WireEnum.parse(BuiltinEvaluator.class, raw, "builtin evaluator");
    }
}
