package dev.interlock.model.rerun;

import dev.interlock.model.pipeline.MonitoringConfig;
import dev.interlock.model.trait.TraitResult;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Compares post-completion trait results with the pre-trigger baseline (SPEC §7 checkDrift): a trait drifted when
 * its status changed, or when {@code driftField} in its value moved by more than {@code driftThreshold}. The Go
 * original compared fields the evaluator never returned, so it never saw drift.
 */
public final class Drift {
    private Drift() {
    }

    /** One late-arrival record per drifted trait; traits without a baseline cannot drift. */
    public static List<LateArrival> detect(List<TraitResult> baseline, List<TraitResult> current, MonitoringConfig monitoring,
                                           String runId, Instant now) {
        Map<String, TraitResult> before = new HashMap<>();
        baseline.forEach(r -> before.put(r.traitType(), r));
        List<LateArrival> drifted = new ArrayList<>();
        for (TraitResult after : current) {
            TraitResult previous = before.get(after.traitType());
            if (previous == null) {
                continue;
            }
            double delta = fieldDelta(previous, after, monitoring.driftField());
            double threshold = monitoring.driftThreshold() == null ? 0 : monitoring.driftThreshold();
            boolean statusChanged = previous.status() != after.status();
            boolean fieldMoved = !Double.isNaN(delta) && Math.abs(delta) > threshold;
            if (statusChanged || fieldMoved) {
                drifted.add(new LateArrival(after.pipelineId(), after.date(), after.scheduleId(), after.traitType(), runId,
                        previous.status(), after.status(), Double.isNaN(delta) ? 0 : delta, now));
            }
        }
        return List.copyOf(drifted);
    }

    /** after − before of a numeric field (dots reach into nested objects); NaN when either side lacks it. */
    static double fieldDelta(TraitResult before, TraitResult after, String field) {
        if (field == null || field.isBlank()) {
            return Double.NaN;
        }
        BigDecimal from = number(before.value(), field);
        BigDecimal to = number(after.value(), field);
        return from == null || to == null ? Double.NaN : to.subtract(from).doubleValue();
    }

    private static BigDecimal number(Map<String, Object> value, String path) {
        Object current = value;
        for (String part : path.split("\\.")) {
            if (!(current instanceof Map<?, ?> map)) {
                return null;
            }
            current = map.get(part);
        }
        if (current instanceof Number n) {
            return new BigDecimal(n.toString());
        }
        if (current instanceof String s) {
            try {
                return new BigDecimal(s.trim());
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }
}
