package dev.interlock.orchestrator;

import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.schedule.ScheduleWindow;

/**
 * {@code checkCompletionSLA}: the schedule's {@code deadline} (else {@code sla.completionDeadline}) judged when the
 * run completes; alerts SLA_COMPLETION_BREACHED once.
 */
public final class CheckCompletionSla implements Action {

    private final SlaDeadline deadline;
    private final Collaborators collaborators;

    public CheckCompletionSla(Collaborators collaborators) {
        this.collaborators = collaborators;
        this.deadline = new SlaDeadline(
                collaborators, ScheduleWindow::completionDeadline, AlertKind.SLA_COMPLETION_BREACHED, "Completion");
    }

    /**
     * Request payload.
     *
     * @param deadline the deadline {@code resolvePipeline} resolved (ISO-8601, {@code ""} none); absent: the pipeline
     *                 is read
     */
    record Request(String deadline) {}

    @Override
    public Outcome run(ActionRequest request) {
        String resolved = request.payload(Request.class).deadline();
        Outcome outcome = resolved == null ? deadline.check(request) : deadline.check(request, resolved);
        if (outcome.payload() instanceof SlaDeadline.Payload judged
                && !judged.deadline().isBlank()) {
            PublishedMetrics.completionSla(collaborators, request, java.time.Instant.parse(judged.deadline()));
        }
        return outcome;
    }

    @Override
    public Object errorPayload() {
        return new SlaDeadline.Payload(false, "");
    }
}
