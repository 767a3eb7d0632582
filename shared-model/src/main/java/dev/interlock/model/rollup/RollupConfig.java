package dev.interlock.model.rollup;

import dev.interlock.model.json.JsonPath;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A trait that waits for a whole period of a finer upstream (docs/pipeline-reference.md, "Rollups"): the trait config
 * key {@code rollup} of {@code builtin:upstream-run-log} (every window of the upstream on the execution date) and of
 * the sensor builtins (every hour's partition, {@code ${hour}} = 00…23). {@code rollup: true} or {@code rollup: {}}
 * asks for every period; {@code minCount} lets fewer do, from the readiness rule's {@code proceedAt} on (at once when
 * the rule has none), always recorded as a degraded start naming the missing periods.
 *
 * @param minCount        how many periods suffice (null: every one)
 * @param onUpstreamRerun what a completed rollup does when an upstream period completes again
 */
public record RollupConfig(Integer minCount, RerunPolicy onUpstreamRerun) {

    /** One thing wrong with a written rollup, at a JSON path. */
    public record Problem(String path, String message) {}

    /** The trait config key. */
    public static final String CONFIG_KEY = "rollup";
    /** The most periods a rollup can have in a day: a per-minute cron's windows. */
    public static final int MAX_PERIODS = 24 * 60;

    private static final Set<String> FIELDS = Set.of("minCount", "onUpstreamRerun");

    public RollupConfig {
        onUpstreamRerun = onUpstreamRerun == null ? RerunPolicy.ALERT : onUpstreamRerun;
    }

    /** The rollup a trait config declares, or empty when it declares none (or declares it wrongly: see {@link #errors}). */
    public static Optional<RollupConfig> of(Map<String, Object> traitConfig) {
        if (traitConfig == null || !traitConfig.containsKey(CONFIG_KEY)) {
            return Optional.empty();
        }
        Object raw = traitConfig.get(CONFIG_KEY);
        if (Boolean.TRUE.equals(raw)) {
            return Optional.of(new RollupConfig(null, null));
        }
        if (!(raw instanceof Map<?, ?> fields) || !errors(raw, "$").isEmpty()) {
            return Optional.empty();
        }
        Integer minCount = fields.get("minCount") instanceof Number n ? n.intValue() : null;
        RerunPolicy policy =
                fields.get("onUpstreamRerun") instanceof String s ? RerunPolicy.parse(s) : RerunPolicy.ALERT;
        return Optional.of(new RollupConfig(minCount, policy));
    }

    /** Whether a trait config declares a rollup at all (well formed or not). */
    public static boolean declared(Map<String, Object> traitConfig) {
        return traitConfig != null
                && traitConfig.containsKey(CONFIG_KEY)
                && !Boolean.FALSE.equals(traitConfig.get(CONFIG_KEY));
    }

    /** What is wrong with a {@code rollup} value written at {@code path}; empty when nothing is. */
    public static List<Problem> errors(Object raw, String path) {
        List<Problem> errors = new ArrayList<>();
        if (raw instanceof Boolean) {
            return errors;
        }
        if (!(raw instanceof Map<?, ?> fields)) {
            errors.add(new Problem(
                    path, "rollup must be true or an object {minCount, onUpstreamRerun}, got " + describe(raw)));
            return errors;
        }
        for (Object key : fields.keySet()) {
            if (!FIELDS.contains(String.valueOf(key))) {
                errors.add(new Problem(
                        JsonPath.field(path, String.valueOf(key)),
                        "unknown field of a rollup; allowed: minCount, onUpstreamRerun"));
            }
        }
        Object minCount = fields.get("minCount");
        if (minCount != null
                && (!(minCount instanceof Integer || minCount instanceof Long)
                        || ((Number) minCount).longValue() < 1
                        || ((Number) minCount).longValue() > MAX_PERIODS)) {
            errors.add(new Problem(
                    JsonPath.field(path, "minCount"),
                    "minCount must be a whole number from 1 to the number of periods, got " + describe(minCount)));
        }
        Object policy = fields.get("onUpstreamRerun");
        if (policy != null) {
            try {
                if (!(policy instanceof String text)) {
                    throw new IllegalArgumentException("onUpstreamRerun must be text; allowed: rerun, alert, ignore");
                }
                RerunPolicy.parse(text);
            } catch (IllegalArgumentException e) {
                errors.add(new Problem(JsonPath.field(path, "onUpstreamRerun"), e.getMessage()));
            }
        }
        return errors;
    }

    /** How many of {@code periods} must be in before the rollup may pass (all of them without a {@code minCount}). */
    public int needed(int periods) {
        return minCount == null ? periods : Math.min(minCount, periods);
    }

    private static String describe(Object value) {
        return value instanceof String s ? "'" + s + "'" : String.valueOf(value);
    }
}
