package dev.interlock.orchestrator;

import dev.interlock.jobs.RunCheck;
import dev.interlock.jobs.RunCheckState;
import dev.interlock.log.LogContext;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.run.JobCallback;
import dev.interlock.model.run.RunState;
import dev.interlock.model.trigger.TriggerType;
import dev.interlock.store.DueEntry;
import dev.interlock.store.WatchdogIndex;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The watchdog's duty for a callback check: the job of a run waiting by callback may have ended without its job-state
 * event; asks the job system and completes the wait itself when it did.
 */
final class CallbackCheckDuty {

    private final Collaborators collaborators;

    CallbackCheckDuty(Collaborators collaborators) {
        this.collaborators = collaborators;
    }

    /**
     * A callback check: the job of a run waiting by callback may have ended without its job-state event reaching
     * {@code jobStateChange}. Asks the job system as the run-checker does; a job that ended completes the wait as its
     * event would have ({@link JobCompletion}: CAS on the run, SendTaskSuccess/SendTaskFailure) and leaves
     * {@code JOB_EVENT_RECOVERED}; a job still running (or a check that could not tell) is asked again
     * {@link Watchdog#CALLBACK_CHECK_INTERVAL} later, and a check refused for good also leaves an event and an alert
     * ({@link CallbackCheckRefusal}). Nothing to do once the run is decided or nobody waits for the job.
     */
    void check(DueEntry entry, WatchdogTally tally) {
        WatchdogIndex index = collaborators.provider().watchdog();
        Optional<RunState> found = collaborators.provider().runs().get(entry.runId());
        if (found.isEmpty()) {
            index.remove(entry);
            return;
        }
        if (found.get().status().isTerminal()) {
            endedRun(entry, found.get(), tally);
            index.remove(entry);
            return;
        }
        RunState run = found.get();
        LogContext context = new LogContext(
                run.pipelineId(), run.scheduleId(), run.date().toString(), run.runId(), run.executionName());
        TriggerType type;
        try {
            type = TriggerType.fromJson(entry.triggerType());
        } catch (IllegalArgumentException e) {
            collaborators.log().error(context, "callback check of an unknown job type dropped", Map.of(), e);
            tally.errors.add(run.pipelineId() + ": callback check: " + e.getMessage());
            index.remove(entry);
            return;
        }
        RunCheck check;
        try {
            check = collaborators.jobChecks().check(EndedRunCheck.jobCheck(run, type));
        } catch (RuntimeException e) {
            // A defect or an unreachable job system: asked again later, the tick goes on.
            collaborators.log().error(context, "callback check could not ask the job system", Map.of(), e);
            check = RunCheck.running("the job system could not be asked: " + e.getMessage());
        }
        if (CallbackCheckRefusal.refused(check)) {
            new CallbackCheckRefusal(collaborators).report(run, type, entry.jobId(), check, context);
        }
        if (check.state() == RunCheckState.RUNNING) {
            index.expectJobCallback(
                    entry.pipelineId(),
                    entry.runId(),
                    entry.triggerType(),
                    entry.jobId(),
                    collaborators.now().plus(Watchdog.CALLBACK_CHECK_INTERVAL));
            index.remove(entry);
            return;
        }
        JobCallback callback = collaborators.provider().jobCallbacks().find(type, entry.jobId());
        if (callback == null
                || callback.waiter() == null
                || !entry.runId().equals(callback.waiter().runId())) {
            // The waiter was never recorded (its call failed) or another run waits for the job now: the wait's own
            // timeout and fallback poll follow this run.
            collaborators
                    .log()
                    .warn(
                            context,
                            "job ended but no wait of this run is recorded for it",
                            Map.of("job", entry.jobId()));
            index.remove(entry);
            return;
        }
        String message = type.wireName() + " job " + entry.jobId() + " ended "
                + check.state().wireName()
                + " (no job-state event came; asked by the watchdog)"
                + (check.message().isBlank() ? "" : ": " + check.message());
        RunCheck outcome = new RunCheck(check.state(), message, check.failureCategory(), check.stoppedAs());
        JobCompletion.Completed done =
                new JobCompletion(collaborators).complete(callback, outcome, JobCompletion.CompletedBy.WATCHDOG);
        if (done.delivered() || done.recorded()) {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("reason", Watchdog.NO_JOB_STATE_EVENT);
            details.put("triggerType", type.wireName());
            details.put("jobId", entry.jobId());
            details.put("jobState", check.state().wireName());
            details.put("checkedAt", InterlockJson.timestamp(collaborators.now()));
            collaborators
                    .provider()
                    .events()
                    .append(new Event(
                            EventKind.JOB_EVENT_RECOVERED,
                            run.pipelineId(),
                            run.scheduleId(),
                            run.date(),
                            run.runId(),
                            null,
                            check.state().wireName(),
                            "no job-state event came for " + type.wireName() + " job " + entry.jobId()
                                    + "; the watchdog found it " + check.state().wireName() + " and completed the wait",
                            details,
                            collaborators.now()));
            collaborators
                    .log()
                    .warn(
                            context,
                            "job-state event missing; wait completed by the watchdog",
                            Map.of("job", entry.jobId(), "state", check.state().wireName()));
            tally.jobEventsRecovered.add(run.runId());
        }
        index.remove(entry);
    }

    /** A callback check of a run that ended meanwhile: its day's end may still need recording ({@link EndedRunCheck}). */
    private void endedRun(DueEntry entry, RunState run, WatchdogTally tally) {
        try {
            if (new EndedRunCheck(collaborators).check(entry, run, TriggerType.fromJson(entry.triggerType()))) {
                tally.jobEventsRecovered.add(run.runId());
            }
        } catch (IllegalArgumentException e) {
            tally.errors.add(run.pipelineId() + ": callback check: " + e.getMessage());
        }
    }
}
