package dev.interlock.orchestrator;

import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.event.EventKind;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the dispatcher records about a gate's answer when the gate does not record it itself: a gate that could not
 * decide (exclusion, lock, run log: {@code error}) fails its execution, so it leaves a {@code GATE_ERROR} event and a
 * deduplicated {@code GATE_ERROR} alert, never only a FAILED execution; an evaluation the run-log gate turns away leaves
 * an {@code EVALUATION_SKIPPED} event with the reason; a ready {@code checkReadiness} after a reported NOT READY round
 * tells the lock its holder left evaluation (markers for the day then wait instead of being absorbed; a holder ready in
 * its first round never reported one). Recording is best effort: the gate's answer
 * stands even when the store cannot take the record.
 */
final class GateOutcomes {

    private final Collaborators collaborators;

    GateOutcomes(Collaborators collaborators) {
        this.collaborators = collaborators;
    }

    void after(OrchestratorAction action, ActionRequest request, Outcome outcome) {
        try {
            switch (action) {
                case CHECK_EXCLUSION, ACQUIRE_LOCK, CHECK_RUN_LOG -> {
                    if (outcome.result() == Result.ERROR) {
                        gateError(action, request, outcome);
                    } else if (action == OrchestratorAction.CHECK_RUN_LOG
                            && outcome.result() == Result.SKIP
                            && outcome.payload() instanceof CheckRunLog.Payload payload
                            && payload.retryAfterSeconds() == 0) {
                        skipped(request, outcome, payload);
                    }
                }
                case CHECK_READINESS -> {
                    if (outcome.result() == Result.PROCEED
                            && request.executionName() != null
                            && CheckReadiness.roundReported(request)) {
                        collaborators
                                .provider()
                                .locks()
                                .recordEvaluating(LockOwner.key(request), request.executionName(), null, null);
                    }
                }
                default -> {}
            }
        } catch (RuntimeException e) {
            collaborators
                    .log()
                    .error(
                            request.logContext(),
                            "could not record the outcome of " + action.wireName(),
                            Map.of("result", outcome.result().wireName()),
                            e);
        }
    }

    private void gateError(OrchestratorAction action, ActionRequest request, Outcome outcome) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("gate", action.wireName());
        if (request.executionName() != null) {
            details.put("executionName", request.executionName());
        }
        details.put("reason", outcome.reason());
        String message = "Pipeline " + request.pipelineId() + " failed at the " + action.wireName() + " gate: "
                + outcome.reason();
        collaborators.record(request, EventKind.GATE_ERROR, "ERROR", message, details);
        collaborators
                .alerts()
                .raise(
                        AlertKind.GATE_ERROR,
                        AlertLevel.ERROR,
                        request.pipelineId(),
                        request.scheduleId(),
                        request.date(),
                        message,
                        details,
                        request.logContext());
    }

    private void skipped(ActionRequest request, Outcome outcome, CheckRunLog.Payload payload) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("gate", OrchestratorAction.CHECK_RUN_LOG.wireName());
        if (request.executionName() != null) {
            details.put("executionName", request.executionName());
        }
        details.put("runLogStatus", payload.status());
        collaborators.record(request, EventKind.EVALUATION_SKIPPED, "SKIPPED", outcome.reason(), details);
    }
}
