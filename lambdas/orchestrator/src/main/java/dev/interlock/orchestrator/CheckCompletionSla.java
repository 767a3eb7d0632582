package dev.interlock.orchestrator;

import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.schedule.ScheduleWindow;

/**
 * {@code checkCompletionSLA}: the schedule's {@code deadline} (else {@code sla.completionDeadline}) judged when the
 * run completes; alerts SLA_COMPLETION_BREACHED once.
 */
public final class CheckCompletionSla implements Action {

    private final SlaDeadline deadline;

    public CheckCompletionSla(Collaborators collaborators) {
        this.deadline = new SlaDeadline(
                collaborators, ScheduleWindow::completionDeadline, AlertKind.SLA_COMPLETION_BREACHED, "Completion");
    }

    @Override
    public Outcome run(ActionRequest request) {
        return deadline.check(request);
    }

    @Override
    public Object errorPayload() {
        return new SlaDeadline.Payload(false, "");
    }
}
