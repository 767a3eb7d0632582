package dev.interlock.orchestrator;

import dev.interlock.model.event.EventKind;
import dev.interlock.model.force.Forced;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.schedule.ReadableTime;
import dev.interlock.model.schedule.ScheduleWindow;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the orchestrator records for a dry-run pipeline where a real one would act (the events are
 * {@link dev.interlock.model.event.DryRunShadow}'s): ready — it would trigger (or rerun, when it would already have
 * run), and would meet or miss each SLA deadline; the wait ending — it would be exhausted, with no FAILED run log.
 * Either way its run ends CANCELLED, so the watchdog does not report it as stuck.
 */
final class DryRunRecords {

    /** How far back the day's events are read to tell a first "would trigger" from a rerun. */
    private static final int RECENT_EVENTS = 100;

    private final Collaborators collaborators;

    DryRunRecords(Collaborators collaborators) {
        this.collaborators = collaborators;
    }

    /**
     * The day is ready (or, past its readiness rule's proceedAt, goes on without {@code proceededWithout}): what would be
     * triggered, and how it stands against each SLA deadline.
     */
    void ready(
            ActionRequest request,
            PipelineConfig pipeline,
            boolean evaluationSlaBreached,
            List<String> proceededWithout,
            Forced forced) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put(
                "triggerType",
                pipeline.trigger() == null ? "" : pipeline.trigger().type().wireName());
        if (!proceededWithout.isEmpty()) {
            details.put("proceededWithout", proceededWithout);
        }
        boolean wouldHaveRun = wouldHaveRun(request);
        collaborators.record(
                request,
                wouldHaveRun ? EventKind.DRY_RUN_WOULD_RERUN : EventKind.DRY_RUN_WOULD_TRIGGER,
                "READY",
                wouldHaveRun
                        ? "dry run: ready again after the day would have run; new data would start a late-arrival rerun"
                        : forced != null
                                ? "dry run: " + forced.describe() + "; the trigger would start now"
                                : proceededWithout.isEmpty()
                                        ? "dry run: every required trait passed; the trigger would start now"
                                        : "dry run: past proceedAt without " + String.join(", ", proceededWithout)
                                                + "; the trigger would start now",
                details);
        deadlines(request, pipeline, evaluationSlaBreached);
        cancelRun(request, "dry run: not triggered");
    }

    /**
     * The wait for data ended (the validation deadline, or a required trait's PERMANENT error): what a real pipeline
     * would have logged FAILED and alerted. Answers what {@code logResult} answers for a failure that is not retried.
     */
    Outcome exhausted(
            ActionRequest request, FailureCategory category, String message, String trait, List<String> blocking) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("failureCategory", category.wireName());
        if (trait != null) {
            details.put("trait", trait);
        }
        if (blocking != null && !blocking.isEmpty()) {
            details.put("blocking", blocking);
        }
        if (cancelRun(request, "dry run: would have failed " + category.wireName())) {
            collaborators.record(
                    request,
                    EventKind.DRY_RUN_WOULD_BE_EXHAUSTED,
                    category.wireName(),
                    "dry run: would fail " + category.wireName() + ": " + message,
                    details);
        }
        return Outcome.proceed(
                new LogResult.Payload("FAILED", 0, false, 0, InterlockJson.timestamp(collaborators.now())));
    }

    private boolean wouldHaveRun(ActionRequest request) {
        try {
            return collaborators.provider().events().latest(request.pipelineId(), RECENT_EVENTS).stream()
                    .anyMatch(e -> e.kind() == EventKind.DRY_RUN_WOULD_TRIGGER
                            && request.date().equals(e.date())
                            && request.scheduleId().equals(e.scheduleId()));
        } catch (RuntimeException e) {
            collaborators
                    .log()
                    .warn(
                            request.logContext(),
                            "could not read the day's events; recording a dry-run trigger",
                            Map.of("error", String.valueOf(e.getMessage())));
            return false;
        }
    }

    /** Met or missed, for each deadline the schedule has; a missed evaluation deadline was already recorded. */
    private void deadlines(ActionRequest request, PipelineConfig pipeline, boolean evaluationSlaBreached) {
        ScheduleWindow window;
        try {
            window = ScheduleWindow.of(pipeline, request.scheduleId(), request.date());
        } catch (IllegalArgumentException | DateTimeException e) {
            return; // the SLA checks report an invalid deadline themselves
        }
        Instant now = collaborators.now();
        if (!evaluationSlaBreached) {
            deadline(request, "evaluation", window.evaluationDeadline(), window.zone(), now);
        }
        deadline(request, "completion", window.completionDeadline(), window.zone(), now);
    }

    private void deadline(ActionRequest request, String sla, Instant deadline, ZoneId zone, Instant now) {
        if (deadline == null) {
            return;
        }
        boolean missed = ScheduleWindow.breached(deadline, now);
        collaborators.record(
                request,
                missed ? EventKind.DRY_RUN_SLA_MISSED : EventKind.DRY_RUN_SLA_MET,
                missed ? "MISSED" : "MET",
                "dry run: ready " + (missed ? "after" : "before") + " the " + sla + " deadline "
                        + ReadableTime.of(deadline, zone)
                        + (sla.equals("completion") && !missed ? " (the job would have the time left to finish)" : ""),
                Map.of("sla", sla, "deadline", InterlockJson.timestamp(deadline)));
    }

    /** Ends the day's run CANCELLED; false when it was ended already (a repeated call records nothing again). */
    private boolean cancelRun(ActionRequest request, String message) {
        return RunCancellation.cancel(collaborators, request, message, Map.of());
    }
}
