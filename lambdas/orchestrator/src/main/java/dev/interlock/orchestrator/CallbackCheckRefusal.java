package dev.interlock.orchestrator;

import dev.interlock.jobs.RunCheck;
import dev.interlock.jobs.RunCheckState;
import dev.interlock.log.LogContext;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.run.RunState;
import dev.interlock.model.trigger.TriggerType;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A watchdog callback check that the job system refused for good (a PERMANENT failure to ask: the job is unknown to
 * it, access is denied). Such a check decides nothing about the run — the wait's own timeout and fallback poll still
 * do, and the check is asked again later — but it is never only a log line: each refusal is a
 * {@code JOB_CHECK_FAILED} event on the run, and the day gets one {@code JOB_CHECK_FAILED} alert.
 */
final class CallbackCheckRefusal {

    private final Collaborators collaborators;

    CallbackCheckRefusal(Collaborators collaborators) {
        this.collaborators = collaborators;
    }

    /** Whether {@code check} is a permanent refusal to answer (it says the job is still to be asked about). */
    static boolean refused(RunCheck check) {
        return check.state() == RunCheckState.RUNNING && check.failureCategory() == FailureCategory.PERMANENT;
    }

    /** Records the refusal as an event and alerts once for the day; returns whether the alert was sent now. */
    boolean report(RunState run, TriggerType type, String jobId, RunCheck check, LogContext context) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("triggerType", type.wireName());
        details.put("jobId", jobId);
        details.put("failureCategory", FailureCategory.PERMANENT.wireName());
        details.put("reason", check.message());
        String message = "the watchdog could not check " + type.wireName() + " job " + jobId + " of run " + run.runId()
                + ": " + check.message();
        collaborators
                .provider()
                .events()
                .append(new Event(
                        EventKind.JOB_CHECK_FAILED,
                        run.pipelineId(),
                        run.scheduleId(),
                        run.date(),
                        run.runId(),
                        null,
                        "ERROR",
                        message,
                        details,
                        collaborators.now()));
        return collaborators
                .alerts()
                .raise(
                        AlertKind.JOB_CHECK_FAILED,
                        AlertLevel.ERROR,
                        run.pipelineId(),
                        run.scheduleId(),
                        run.date(),
                        message,
                        details,
                        // Not as the waiting execution: the alert ledger lets one claimant take its own unsent claim
                        // again at once (a Task's retry), so two overlapping watchdog ticks claiming in that
                        // execution's name would both send. Each tick claims as itself; a second one finds the claim
                        // taken.
                        context.withExecution(null));
    }
}
