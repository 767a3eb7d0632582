package dev.interlock.orchestrator;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.model.event.EventKind;
import dev.interlock.wiring.alert.DeduplicatedAlerts;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code alertExecutionError}: a Task of the state machine failed and no state handled it. Records an
 * {@code EXECUTION_ERROR} event for the execution and raises the {@code EXECUTION_ERROR} alert through the same
 * deduplication as every other kind (once per pipeline, date and schedule). When the alert cannot be delivered this
 * way (no pipeline to key it by, or the publish failed) the action throws, and the machine's Catch publishes the alert
 * straight to the topic instead: an alert about a failing execution is never only a log line.
 */
public final class AlertExecutionError implements Action {

    /** Always-present payload: {@code alerted} false when it was already sent for the day. */
    public record Payload(boolean alerted) {}

    /** Request payload: the caught error ({@code Error}, {@code Cause}) as Step Functions reports it. */
    record Request(JsonNode error) {}

    /** Thrown when the alert was not delivered; the state machine's Catch then publishes it directly. */
    static final class AlertNotDelivered extends RuntimeException {
        AlertNotDelivered(String message) {
            super(message);
        }
    }

    static final String MESSAGE = "A task failed and no state handled the error";

    private final Collaborators collaborators;

    public AlertExecutionError(Collaborators collaborators) {
        this.collaborators = collaborators;
    }

    @Override
    public Outcome run(ActionRequest request) {
        if (request.pipelineId() == null) {
            throw new AlertNotDelivered("the failed execution names no pipeline, so its alert cannot be deduplicated");
        }
        JsonNode error = request.payload(Request.class).error();
        Map<String, Object> details = new LinkedHashMap<>();
        if (request.executionName() != null) {
            details.put("executionName", request.executionName());
        }
        details.put("error", error == null || error.isNull() ? Map.of() : error);
        try {
            collaborators.record(request, EventKind.EXECUTION_ERROR, "ERROR", MESSAGE, details);
        } catch (RuntimeException e) {
            // The store may be why the execution failed: the alert matters more than the event.
            collaborators.log().error(request.logContext(), "execution error event not recorded", Map.of(), e);
        }
        DeduplicatedAlerts.Delivery delivery = collaborators
                .alerts()
                .deliver(
                        AlertKind.EXECUTION_ERROR,
                        AlertLevel.ERROR,
                        request.pipelineId(),
                        request.scheduleId(),
                        request.date(),
                        MESSAGE,
                        details,
                        request.logContext());
        if (delivery == DeduplicatedAlerts.Delivery.FAILED) {
            throw new AlertNotDelivered("the EXECUTION_ERROR alert could not be published");
        }
        return Outcome.proceed(new Payload(delivery == DeduplicatedAlerts.Delivery.SENT));
    }

    @Override
    public Payload errorPayload() {
        return new Payload(false);
    }
}
