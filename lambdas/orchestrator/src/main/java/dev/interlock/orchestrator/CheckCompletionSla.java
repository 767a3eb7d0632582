package dev.interlock.orchestrator;

import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.schedule.ScheduleWindow;
import java.time.Instant;
import java.util.Map;

/**
 * The completion SLA: the schedule's {@code deadline} (else {@code sla.completionDeadline}) judged on the time the day
 * was really COMPLETED — when its completion was recorded, after its post-run checks passed (docs/post-run-checks.md)
 * — by whoever records it: {@code logResult} ({@link LogResult}) and {@link DayCompletion}, through
 * {@link #judgeCompletion}. Past the deadline: SLA_COMPLETION_BREACHED, once; either way the SLA metrics. A day whose
 * checks failed is not completed and is judged by nothing here.
 *
 * <p>The action {@code checkCompletionSLA}, which the machine calls just before {@code logCompleted} (every definition
 * deployed so far does), judges nothing: at that point the day is not completed yet. It answers the deadline.
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
        return deadline.deadlineOnly(request, request.payload(Request.class).deadline());
    }

    /**
     * Judges the completion recorded at {@code completedAt} against the deadline {@code resolved} when the run started
     * ({@code ""} none; null: the pipeline's, for a caller not given it — an execution of an earlier definition, or a
     * day recorded from outside its execution). Alerts once (deduplicated, so a repeated call sends nothing more);
     * publishes the SLA metrics only when {@code publishMetrics} (the call that recorded the completion). Never fails
     * the caller: a deadline that cannot be judged is logged.
     */
    void judgeCompletion(ActionRequest request, String resolved, Instant completedAt, boolean publishMetrics) {
        Outcome outcome = deadline.checkAt(request, resolved, completedAt);
        if (outcome.result() == Result.ERROR) {
            collaborators
                    .log()
                    .warn(
                            request.logContext(),
                            "completion SLA not judged: " + outcome.reason(),
                            Map.of("runId", String.valueOf(request.runId())));
            return;
        }
        if (publishMetrics
                && outcome.payload() instanceof SlaDeadline.Payload judged
                && !judged.deadline().isBlank()) {
            PublishedMetrics.completionSla(collaborators, request, Instant.parse(judged.deadline()), completedAt);
        }
    }

    @Override
    public Object errorPayload() {
        return new SlaDeadline.Payload(false, "");
    }
}
