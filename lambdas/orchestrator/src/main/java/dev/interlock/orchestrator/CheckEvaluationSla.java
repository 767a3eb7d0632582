package dev.interlock.orchestrator;

import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.schedule.ScheduleWindow;

/** {@code checkEvaluationSLA}: alerts SLA_EVALUATION_BREACHED once when evaluation runs after the deadline. */
public final class CheckEvaluationSla implements Action {

    private final SlaDeadline deadline;

    public CheckEvaluationSla(Collaborators collaborators) {
        this.deadline = new SlaDeadline(
                collaborators, ScheduleWindow::evaluationDeadline, AlertKind.SLA_EVALUATION_BREACHED, "Evaluation");
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
