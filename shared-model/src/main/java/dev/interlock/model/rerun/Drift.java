package dev.interlock.model.rerun;

import dev.interlock.model.pipeline.MonitoringConfig;
import dev.interlock.model.trait.TraitVerdict;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The drift rule of post-run monitoring: only newer or more complete data is drift. A trait drifted when it turned
 * PASS after failing (or being stale) before the trigger, or when the configured {@code driftField} of its value moved
 * by more than {@code driftThreshold}. A result that merely aged (PASS → STALE, PASS → FAIL because a freshness window
 * passed) says nothing new about the data, so it never is; neither is an ERROR on either side (the evaluator failed).
 */
public final class Drift {
    private Drift() {}

    /**
     * One drifted trait: a status flip ({@code field} null, {@code from}/{@code to} statuses) or a field that moved
     * ({@code from}/{@code to} its numeric values).
     */
    public record Change(String traitType, String field, Object from, Object to) {

        /** The change as event details. */
        public Map<String, Object> details() {
            Map<String, Object> details = new LinkedHashMap<>();
            if (field != null) {
                details.put("field", field);
            }
            details.put("from", from);
            details.put("to", to);
            return details;
        }
    }

    /** The drifted traits of {@code current} against the pre-trigger {@code baseline}; traits without one cannot drift. */
    public static List<Change> detect(
            List<TraitVerdict> baseline, List<TraitVerdict> current, MonitoringConfig monitoring) {
        Map<String, TraitVerdict> before = new LinkedHashMap<>();
        baseline.forEach(b -> before.put(b.type(), b));
        List<Change> changes = new ArrayList<>();
        for (TraitVerdict now : current) {
            TraitVerdict then = before.get(now.type());
            if (then == null || now.errored() || then.errored()) {
                continue;
            }
            if (now.passed() && !then.passed()) {
                changes.add(new Change(now.type(), null, then.statusName(), now.statusName()));
                continue;
            }
            String field = monitoring.driftField();
            if (field == null || field.isBlank()) {
                continue;
            }
            OptionalDouble a = number(then.value(), field);
            OptionalDouble b = number(now.value(), field);
            double threshold = monitoring.driftThreshold() == null ? 0 : monitoring.driftThreshold();
            if (a.isPresent() && b.isPresent() && Math.abs(b.getAsDouble() - a.getAsDouble()) > threshold) {
                changes.add(new Change(now.type(), field, a.getAsDouble(), b.getAsDouble()));
            }
        }
        return List.copyOf(changes);
    }

    private static OptionalDouble number(Map<String, Object> value, String field) {
        // Only JSON numbers: a field that is not one cannot have moved by an amount.
        return value != null && value.get(field) instanceof Number n
                ? OptionalDouble.of(n.doubleValue())
                : OptionalDouble.empty();
    }
}
