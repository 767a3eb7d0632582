package dev.interlock.orchestrator;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.rerun.Drift;
import dev.interlock.model.trait.TraitVerdict;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code checkDrift}: compares each monitored trait with its pre-trigger result by the drift rule ({@link Drift}):
 * only newer or more complete data is drift, never a result that aged. Drift is recorded and alerted once a day. The
 * monitoring round's trait results (and the drift event) are recorded here in one request, as
 * {@code checkReadiness} records an evaluation round ({@link EvaluationRound}). A round whose monitored run was
 * superseded meanwhile ({@link MonitoredRun}) is neither compared nor recorded.
 */
public final class CheckDrift implements Action {

    /** Always-present payload. */
    public record Payload(boolean driftDetected, List<String> drifted) {}

    /** Request payload. */
    record Request(JsonNode baseline, JsonNode current, JsonNode traits) {}

    private final Collaborators collaborators;
    private final EvaluationRound round;
    private final MonitoredRun monitoredRun;

    public CheckDrift(Collaborators collaborators) {
        this.collaborators = collaborators;
        this.round = new EvaluationRound(collaborators);
        this.monitoredRun = new MonitoredRun(collaborators);
    }

    @Override
    public Outcome run(ActionRequest request) {
        Optional<PipelineConfig> pipeline = collaborators.pipeline(request);
        if (pipeline.isEmpty()) {
            return Outcome.error(Collaborators.notFound(request), errorPayload());
        }
        List<TraitVerdict> baseline;
        List<TraitVerdict> current;
        Request body;
        try {
            body = request.payload(Request.class);
            baseline = TraitVerdict.readAll(body.baseline(), "baseline");
            current = TraitVerdict.readAll(body.current(), "current");
        } catch (IllegalArgumentException e) {
            return Outcome.error(e.getMessage(), errorPayload());
        }
        if (monitoredRun.supersededBecause(request).isPresent()) {
            // The baseline is stale: a rerun or re-evaluation of the day ran meanwhile. The round is not compared (nor
            // recorded over the newer run's results); checkMonitoringExpired next ends the loop with the reason.
            return Outcome.proceed(new Payload(false, List.of()));
        }
        List<Drift.Change> changes =
                Drift.detect(baseline, current, pipeline.get().monitoring());
        List<String> drifted = changes.stream().map(Drift.Change::traitType).toList();
        if (drifted.isEmpty()) {
            round.record(request, current, body.traits(), null);
            return Outcome.proceed(new Payload(false, List.of()));
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("drifted", drifted);
        Map<String, Object> byTrait = new LinkedHashMap<>();
        changes.forEach(c -> byTrait.put(c.traitType(), c.details()));
        details.put("changes", byTrait);
        if (request.runId() != null) {
            details.put("runId", request.runId());
        }
        String message =
                "Trait drift detected for " + request.pipelineId() + " after completion: " + String.join(", ", drifted);
        round.record(
                request,
                current,
                body.traits(),
                collaborators.event(request, EventKind.MONITORING_DRIFT_DETECTED, "DRIFT", message, details));
        collaborators
                .alerts()
                .raise(
                        AlertKind.DRIFT_DETECTED,
                        AlertLevel.WARNING,
                        request.pipelineId(),
                        request.scheduleId(),
                        request.date(),
                        message,
                        details,
                        request.logContext());
        return Outcome.proceed(new Payload(true, drifted));
    }

    @Override
    public Payload errorPayload() {
        return new Payload(false, List.of());
    }
}
