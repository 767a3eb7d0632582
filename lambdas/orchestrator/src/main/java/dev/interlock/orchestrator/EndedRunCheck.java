package dev.interlock.orchestrator;

import dev.interlock.jobs.RunCheck;
import dev.interlock.jobs.RunCheckRequest;
import dev.interlock.jobs.RunCheckState;
import dev.interlock.log.LogContext;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.run.JobCallback;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.model.trigger.TriggerType;
import dev.interlock.store.DueEntry;
import java.util.Map;

/**
 * The watchdog's callback check of a run that already ended: its end may have come (by its job-state event, or a
 * poll) while the execution that waited was dying, so nobody recorded the day. Records it as that execution would
 * have ({@link DayCompletion}) once the execution no longer holds the day's lock, and looks again
 * {@link Watchdog#CALLBACK_CHECK_INTERVAL} later while it still does. A run Interlock recorded FAILED whose job is
 * still running or succeeded is asked about again: a job that succeeds after Interlock gave up on it is recorded
 * COMPLETED (late) even when its job-state event is lost — as long as its wait's record lives.
 */
final class EndedRunCheck {

    private final Collaborators c;

    EndedRunCheck(Collaborators collaborators) {
        this.c = collaborators;
    }

    /** Checks the ended run of {@code entry}; true when the day's end was recorded now. */
    boolean check(DueEntry entry, RunState run, TriggerType type) {
        if (run.status() == RunStatus.CANCELLED) {
            return false;
        }
        JobCallback callback = c.provider().jobCallbacks().find(type, entry.jobId());
        String executionName = callback != null
                        && callback.waiter() != null
                        && run.runId().equals(callback.waiter().runId())
                ? callback.waiter().executionName()
                : run.executionName();
        RunCheck outcome = run.status() == RunStatus.COMPLETED
                ? RunCheck.succeeded("run " + run.runId() + " completed")
                : failedRun(run, type);
        if (outcome.state() == RunCheckState.RUNNING) {
            if (callback != null) {
                expectAgain(entry);
            }
            return false;
        }
        DayCompletion.Result result = new DayCompletion(c)
                .afterJobEnd(
                        run.pipelineId(),
                        run.runId(),
                        executionName,
                        outcome,
                        JobCompletion.CompletedBy.WATCHDOG.wireName());
        if (result == DayCompletion.Result.LIVE_EXECUTION) {
            expectAgain(entry);
        }
        return result.recorded();
    }

    /** A FAILED run's job as the job system tells it now: still running, succeeded after all, or the run's failure. */
    private RunCheck failedRun(RunState run, TriggerType type) {
        RunCheck failure = RunCheck.failed(
                run.failureMessage() == null ? "run " + run.runId() + " failed" : run.failureMessage(),
                run.failureCategory() == null ? FailureCategory.TRANSIENT : run.failureCategory());
        try {
            RunCheck now = c.jobChecks().check(jobCheck(run, type));
            return now.state() == RunCheckState.FAILED ? failure : now;
        } catch (RuntimeException e) {
            c.log()
                    .error(
                            new LogContext(
                                    run.pipelineId(),
                                    run.scheduleId(),
                                    run.date().toString(),
                                    run.runId(),
                                    run.executionName()),
                            "callback check of a failed run could not ask the job system",
                            Map.of(),
                            e);
            return failure;
        }
    }

    /** What the watchdog asks the job system about {@code run}'s job: the run's job ids, no headers. */
    static RunCheckRequest jobCheck(RunState run, TriggerType type) {
        return new RunCheckRequest(
                run.pipelineId(), run.scheduleId(), run.date().toString(), run.runId(), type, run.metadata(), Map.of());
    }

    private void expectAgain(DueEntry entry) {
        c.provider()
                .watchdog()
                .expectJobCallback(
                        entry.pipelineId(),
                        entry.runId(),
                        entry.triggerType(),
                        entry.jobId(),
                        c.now().plus(Watchdog.CALLBACK_CHECK_INTERVAL));
    }
}
