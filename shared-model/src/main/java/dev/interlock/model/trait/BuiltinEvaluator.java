package dev.interlock.model.trait;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.interlock.model.json.JsonPath;
import dev.interlock.model.json.ValidationError;
import dev.interlock.model.json.WireEnum;
import dev.interlock.model.lineage.LineageGate;
import dev.interlock.model.rollup.RollupConfig;
import dev.interlock.model.rollup.RollupPeriods;
import dev.interlock.model.sensor.SensorPartition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The evaluators that ship in the evaluator Lambda, addressed as {@code builtin:<name>} (docs/pipeline-reference.md). */
public enum BuiltinEvaluator implements WireEnum {
    UPSTREAM_RUN_LOG("upstream-run-log"),
    SENSOR_THRESHOLD("sensor-threshold"),
    SENSOR_FRESHNESS("sensor-freshness"),
    /** An OpenLineage COMPLETE event of a job or dataset arrived for the day (POST /lineage, docs/openlineage.md). */
    LINEAGE_COMPLETE("lineage-complete"),
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
                    errors.add(new ValidationError(
                            JsonPath.field(configPath, "op"),
                            "op must be one of " + String.join(", ", THRESHOLD_OPERATORS) + ", got " + op));
                }
                Object value = config.get("value");
                // eq also compares written forms (complete eq true); the ordering operators need a number.
                boolean scalar = value instanceof Number || value instanceof String || value instanceof Boolean;
                if ("eq".equals(op) ? !scalar : !(value instanceof Number)) {
                    errors.add(new ValidationError(
                            JsonPath.field(configPath, "value"),
                            "eq".equals(op) ? "value must be a number, text or boolean" : "value must be a number"));
                }
                checkPartition(config, configPath, errors);
            }
            case SENSOR_FRESHNESS -> {
                requireText(config, "sensor", configPath, errors);
                if (!(config.get("maxAgeSeconds") instanceof Number age) || age.doubleValue() <= 0) {
                    errors.add(new ValidationError(
                            JsonPath.field(configPath, "maxAgeSeconds"), "maxAgeSeconds must be a positive number"));
                }
                checkPartition(config, configPath, errors);
            }
            case LINEAGE_COMPLETE -> errors.addAll(LineageGate.configErrors(config, configPath));
            case ALWAYS_PASS, ALWAYS_FAIL -> {
                // Demo and test evaluators: no configuration.
            }
        }
        checkRollup(config, configPath, errors);
        return errors;
    }

    /** Whether this builtin can wait for a whole period of a finer upstream ({@code rollup}). */
    public boolean rollsUp() {
        return this == UPSTREAM_RUN_LOG || readsSensor();
    }

    /**
     * A {@code rollup}: only on a builtin that can roll up, well formed, and — on a sensor — over a partition template
     * that names each hour ({@code ${hour}}), with at most one period per hour to count.
     */
    private void checkRollup(Map<String, Object> config, String configPath, List<ValidationError> errors) {
        if (!RollupConfig.declared(config)) {
            return;
        }
        String path = JsonPath.field(configPath, RollupConfig.CONFIG_KEY);
        if (!rollsUp()) {
            errors.add(new ValidationError(
                    path,
                    "builtin:" + wireName + " cannot roll up; a rollup is for builtin:upstream-run-log, "
                            + "builtin:sensor-freshness and builtin:sensor-threshold"));
            return;
        }
        List<RollupConfig.Problem> problems = RollupConfig.errors(config.get(RollupConfig.CONFIG_KEY), path);
        problems.forEach(p -> errors.add(new ValidationError(p.path(), p.message())));
        if (!readsSensor()) {
            return;
        }
        if (!(config.get(SensorPartition.CONFIG_KEY) instanceof String template)
                || !RollupPeriods.variesByHour(template)) {
            errors.add(new ValidationError(
                    JsonPath.field(configPath, SensorPartition.CONFIG_KEY),
                    "a sensor rollup reads each hour's partition: partition must use ${hour}, e.g. "
                            + "\"${date}T${hour}\""));
        }
        if (problems.isEmpty()
                && RollupConfig.of(config).map(RollupConfig::minCount).orElse(0) > RollupPeriods.HOURS) {
            errors.add(new ValidationError(
                    JsonPath.field(path, "minCount"),
                    "minCount is larger than the " + RollupPeriods.HOURS + " hourly partitions a sensor rollup reads"));
        }
    }

    /**
     * The sensor a trait of this builtin reads with {@code config} (a lineage gate's is its subject's reserved sensor),
     * or null when it reads none or the config names none.
     */
    public String sensorRead(Map<String, Object> config) {
        if (readsSensor()) {
            return config.get("sensor") instanceof String name && !name.isBlank() ? name.trim() : null;
        }
        if (this == LINEAGE_COMPLETE) {
            return LineageGate.of(config)
                    .map(gate -> gate.subject().sensorName())
                    .orElse(null);
        }
        return null;
    }

    /** The partition template a trait of this builtin reads with {@code config}; null: the unpartitioned value. */
    public String partitionRead(Map<String, Object> config) {
        if (this == LINEAGE_COMPLETE) {
            return LineageGate.of(config).map(LineageGate::partitionTemplate).orElse(null);
        }
        return config.get(SensorPartition.CONFIG_KEY) instanceof String template && !template.isBlank()
                ? template.trim()
                : null;
    }

    /** Whether this builtin reads a sensor (and so may take a {@code partition}). */
    public boolean readsSensor() {
        return this == SENSOR_THRESHOLD || this == SENSOR_FRESHNESS;
    }

    /** An optional partition template must expand to a valid partition; absent, the unpartitioned value is read. */
    private static void checkPartition(Map<String, Object> config, String configPath, List<ValidationError> errors) {
        if (!config.containsKey(SensorPartition.CONFIG_KEY)) {
            return;
        }
        String path = JsonPath.field(configPath, SensorPartition.CONFIG_KEY);
        if (!(config.get(SensorPartition.CONFIG_KEY) instanceof String template)) {
            errors.add(new ValidationError(path, "partition must be a text template, e.g. \"${date}\""));
            return;
        }
        SensorPartition.templateProblem(template).ifPresent(problem -> errors.add(new ValidationError(path, problem)));
    }

    private static void requireText(
            Map<String, Object> config, String key, String configPath, List<ValidationError> errors) {
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
