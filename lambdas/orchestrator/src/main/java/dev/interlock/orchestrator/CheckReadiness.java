package dev.interlock.orchestrator;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.model.trait.Readiness;
import dev.interlock.model.trait.TraitVerdict;
import dev.interlock.store.RunTransition;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * {@code checkReadiness}: ready iff every required trait passed ({@link Readiness}). A required ERROR is not ready and alerts TRAIT_ERROR
 * (once per day and schedule). A ready {@code dryRun} pipeline records what would have been triggered and its run
 * ends CANCELLED: the machine then stops without triggering.
 */
public final class CheckReadiness implements Action {

    /** Always-present payload. */
    public record Payload(boolean ready, boolean dryRun, List<String> blocking) {}

    /** Request payload. */
    record Request(JsonNode traitResults) {}

    private final Collaborators collaborators;

    public CheckReadiness(Collaborators collaborators) {
        this.collaborators = collaborators;
    }

    @Override
    public Outcome run(ActionRequest request) {
        Optional<PipelineConfig> pipeline = collaborators.pipeline(request);
        if (pipeline.isEmpty()) {
            return Outcome.error(Collaborators.notFound(request), errorPayload());
        }
        boolean dryRun = pipeline.get().dryRun();
        List<TraitVerdict> results;
        try {
            results = TraitVerdict.readAll(request.payload(Request.class).traitResults(), "traitResults");
        } catch (IllegalArgumentException e) {
            return Outcome.error(e.getMessage(), new Payload(false, dryRun, List.of()));
        }
        Readiness readiness = Readiness.of(results);
        alertErrors(request, readiness);
        boolean ready = readiness.ready();
        List<String> blocking = readiness.blocking();
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("blocking", blocking);
        details.put(
                "statuses",
                results.stream()
                        .collect(Collectors.toMap(
                                TraitVerdict::type, TraitVerdict::statusName, (a, b) -> b, LinkedHashMap::new)));
        collaborators.record(
                request,
                EventKind.READINESS_CHECKED,
                ready ? "READY" : "NOT_READY",
                ready ? "every required trait passed" : "blocking: " + String.join(", ", blocking),
                details);
        if (!ready) {
            return Outcome.skip("not ready", new Payload(false, dryRun, blocking));
        }
        if (dryRun) {
            recordDryRun(request, pipeline.get());
        }
        return Outcome.proceed(new Payload(true, dryRun, List.of()));
    }

    @Override
    public Payload errorPayload() {
        return new Payload(false, false, List.of());
    }

    private void alertErrors(ActionRequest request, Readiness readiness) {
        List<TraitVerdict> requiredErrors = readiness.requiredErrors();
        for (TraitVerdict optional : readiness.optionalErrors()) {
            collaborators
                    .log()
                    .warn(
                            request.logContext(),
                            "optional trait evaluation failed",
                            Map.of("traitType", optional.type(), "reason", String.valueOf(optional.reason())));
        }
        if (requiredErrors.isEmpty()) {
            return;
        }
        Map<String, Object> details = new LinkedHashMap<>();
        for (TraitVerdict error : requiredErrors) {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("reason", error.reason() == null ? "" : error.reason());
            one.put(
                    "failureCategory",
                    error.failureCategory() == null
                            ? ""
                            : error.failureCategory().wireName());
            details.put(error.type(), one);
        }
        String message = "Trait evaluation failed for " + request.pipelineId() + ": "
                + requiredErrors.stream().map(TraitVerdict::type).collect(Collectors.joining(", "));
        collaborators
                .alerts()
                .raise(
                        AlertKind.TRAIT_ERROR,
                        AlertLevel.ERROR,
                        request.pipelineId(),
                        request.scheduleId(),
                        request.date(),
                        message,
                        Map.of("traits", details),
                        request.logContext());
    }

    private void recordDryRun(ActionRequest request, PipelineConfig pipeline) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put(
                "triggerType",
                pipeline.trigger() == null ? "" : pipeline.trigger().type().wireName());
        collaborators.record(
                request,
                EventKind.DRY_RUN_WOULD_TRIGGER,
                "READY",
                "dry run: every required trait passed; the trigger would start now",
                details);
        if (request.runId() == null) {
            return;
        }
        Optional<RunState> run = collaborators.provider().runs().get(request.runId());
        if (run.isEmpty() || !run.get().status().canMoveTo(RunStatus.CANCELLED)) {
            return;
        }
        // A dry run never triggers; ending its run keeps the watchdog from reporting it as stuck.
        RunState next = run.get().moveTo(RunStatus.CANCELLED, collaborators.now());
        collaborators
                .provider()
                .recordTransition(RunTransition.of(
                        run.get().version(),
                        next,
                        collaborators.event(
                                request,
                                EventKind.RUN_STATE_CHANGED,
                                RunStatus.CANCELLED.wireName(),
                                "dry run: not triggered",
                                Map.of())));
    }
}
