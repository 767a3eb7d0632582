package dev.interlock.orchestrator;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.pipeline.MonitoringConfig;
import dev.interlock.model.pipeline.PipelineConfig;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * {@code checkDrift}: compares each monitored trait with its pre-trigger result. Drift is a status change, or the
 * configured {@code driftField} of {@code value} moving by more than {@code driftThreshold}. An ERROR on either side
 * says nothing about the data (the evaluator failed), so it is never drift.
 */
public final class CheckDrift implements Action {

    /** Always-present payload. */
    public record Payload(boolean driftDetected, List<String> drifted) {
    }

    /** Request payload. */
    record Request(JsonNode baseline, JsonNode current) {
    }

    private final Collaborators collaborators;

    public CheckDrift(Collaborators collaborators) {
        this.collaborators = collaborators;
    }

    @Override
    public Outcome run(ActionRequest request) {
        Optional<PipelineConfig> pipeline = collaborators.pipeline(request);
        if (pipeline.isEmpty()) {
            return Outcome.error(Collaborators.notFound(request), errorPayload());
        }
        List<TraitOutcome> baseline;
        List<TraitOutcome> current;
        try {
            Request body = request.payload(Request.class);
            baseline = TraitOutcome.readAll(body.baseline(), "baseline");
            current = TraitOutcome.readAll(body.current(), "current");
        } catch (IllegalArgumentException e) {
            return Outcome.error(e.getMessage(), errorPayload());
        }
        MonitoringConfig monitoring = pipeline.get().monitoring();
        Map<String, TraitOutcome> before = new LinkedHashMap<>();
        baseline.forEach(b -> before.put(b.type(), b));
        List<String> drifted = new ArrayList<>();
        Map<String, Object> changes = new LinkedHashMap<>();
        for (TraitOutcome now : current) {
            TraitOutcome then = before.get(now.type());
            if (then == null || now.errored() || then.errored()) {
                continue;
            }
            if (!now.normalisedStatus().equals(then.normalisedStatus())) {
                drifted.add(now.type());
                changes.put(now.type(), Map.of("from", then.normalisedStatus(), "to", now.normalisedStatus()));
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
                drifted.add(now.type());
                changes.put(now.type(), Map.of("field", field, "from", a.getAsDouble(), "to", b.getAsDouble()));
            }
        }
        if (drifted.isEmpty()) {
            return Outcome.proceed(new Payload(false, List.of()));
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("drifted", drifted);
        details.put("changes", changes);
        if (request.runId() != null) {
            details.put("runId", request.runId());
        }
        String message = "Trait drift detected for " + request.pipelineId() + " after completion: " + String.join(", ", drifted);
        collaborators.record(request, EventKind.MONITORING_DRIFT_DETECTED, "DRIFT", message, details);
        collaborators.alerts().raise(AlertKind.DRIFT_DETECTED, AlertLevel.WARNING, request.pipelineId(),
                request.scheduleId(), request.date(), message, details, request.logContext());
        return Outcome.proceed(new Payload(true, drifted));
    }

    @Override
    public Payload errorPayload() {
        return new Payload(false, List.of());
    }

    private static OptionalDouble number(JsonNode value, String field) {
        if (value == null || !value.isObject()) {
            return OptionalDouble.empty();
        }
        JsonNode node = value.get(field);
        if (node == null) {
            return OptionalDouble.empty();
        }
        // Only JSON numbers: a field that is not one cannot have moved by an amount.
        return node.isNumber() ? OptionalDouble.of(node.asDouble()) : OptionalDouble.empty();
    }
}
