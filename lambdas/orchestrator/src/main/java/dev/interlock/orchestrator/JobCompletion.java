package dev.interlock.orchestrator;

import dev.interlock.jobs.JobStateEvents;
import dev.interlock.jobs.RunCheck;
import dev.interlock.jobs.RunCheckState;
import dev.interlock.model.contract.RunCheckOutput;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.run.JobCallback;
import dev.interlock.model.run.JobStop;
import dev.interlock.model.run.MaximumDuration;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.store.RunTransition;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Completes a run waiting for its job by callback once both its waiter and the job's end are known: records the run's
 * transition RUNNING → COMPLETED | FAILED by compare-and-swap (as a poll would), then ends the machine's wait with
 * SendTaskSuccess (the run-checker's answer shape) or SendTaskFailure ({@value #JOB_FAILED}; the machine's catch asks
 * the run-checker, which answers from the run state with its failure category). Safe to repeat: a run already decided
 * keeps its decision and a token whose wait ended is left alone.
 */
final class JobCompletion {

    /** The error SendTaskFailure sends for a failed job; the ASL catches it into the fallback poll. */
    static final String JOB_FAILED = "Interlock.JobFailed";

    /**
     * The error SendTaskFailure sends for a success the run-checker confirms first ({@link
     * JobStateEvents#successVerifiedByPoll}); the ASL catches it into the fallback poll, which checks the job (a Glue
     * run's error message and driver log) and answers succeeded, or failed {@code FALSE_SUCCESS}.
     */
    static final String JOB_TO_VERIFY = "Interlock.JobToVerify";

    private static final int MAX_CAS_ROUNDS = 3;

    private final Collaborators c;

    JobCompletion(Collaborators collaborators) {
        this.c = collaborators;
    }

    /**
     * What completing did: whether the wait was ended now (false: it had already ended), and whether the day's end was
     * recorded from outside because the execution that waited is gone ({@link DayCompletion}).
     */
    record Completed(String state, boolean delivered, boolean recorded) {}

    /** Who completed a wait: the job-state event (through its job's item) or the watchdog's callback check. */
    enum CompletedBy {
        CALLBACK("callback"),
        WATCHDOG("watchdog");

        private final String wireName;

        CompletedBy(String wireName) {
            this.wireName = wireName;
        }

        String wireName() {
            return wireName;
        }
    }

    /** Completes the wait of {@code callback}'s waiter with the job's end as its event reported it. */
    Completed complete(JobCallback callback) {
        JobCallback.JobEnd end = callback.end();
        String message = callback.triggerType().wireName() + " job " + callback.jobId() + " ended " + end.state()
                + (end.message() == null || end.message().isBlank() ? "" : ": " + end.message());
        RunCheck outcome = JobStateEvents.outcome(callback.triggerType(), end.state(), message);
        return complete(callback, outcome, CompletedBy.CALLBACK);
    }

    /**
     * Completes the wait of {@code callback}'s waiter with {@code outcome} (a poll's or an event's answer): the one
     * rule for every writer that ends a callback wait. A wait that had already ended is left alone and leaves
     * {@code JOB_WAIT_ALREADY_ENDED}.
     */
    Completed complete(JobCallback callback, RunCheck outcome, CompletedBy by) {
        JobCallback.Waiter waiter = callback.waiter();
        if (outcome.state() == RunCheckState.RUNNING) {
            // Not a state that ends the job (the rules match only terminal ones): nothing to complete.
            return new Completed("running", false, false);
        }
        boolean verify = outcome.state() == RunCheckState.SUCCEEDED
                && c.provider()
                        .runs()
                        .get(waiter.runId())
                        .filter(run -> JobStateEvents.successVerifiedByPoll(callback.triggerType(), run.metadata()))
                        .isPresent();
        if (!verify) {
            settle(waiter, outcome, by);
        }
        boolean delivered;
        if (verify) {
            // The run stays RUNNING: the poll that follows decides it, by the same CAS.
            delivered = c.callbacks()
                    .fail(
                            waiter.taskToken(),
                            JOB_TO_VERIFY,
                            outcome.message() + "; the run-checker verifies the success (error message, driver log)");
            if (!delivered) {
                // No execution waits to verify it: the event's word is recorded, as before the check existed.
                settle(waiter, outcome, by);
            }
        } else if (outcome.state() == RunCheckState.SUCCEEDED) {
            RunCheckOutput result = new RunCheckOutput(RunCheckState.SUCCEEDED.wireName(), outcome.message(), "");
            delivered = c.callbacks().succeed(waiter.taskToken(), InterlockJson.write(result));
        } else {
            delivered = c.callbacks().fail(waiter.taskToken(), JOB_FAILED, outcome.message());
        }
        boolean recorded = false;
        if (!delivered) {
            // The execution moved on (it records the end itself while it holds the day's lock) or is gone: then the
            // day's end is recorded here, as the execution would have.
            recorded = new DayCompletion(c)
                    .afterJobEnd(waiter.pipelineId(), waiter.runId(), waiter.executionName(), outcome, by.wireName())
                    .recorded();
        }
        if (!delivered && !recorded) {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("triggerType", callback.triggerType().wireName());
            details.put("jobId", callback.jobId());
            details.put("jobState", outcome.state().wireName());
            details.put("completedBy", by.wireName());
            c.provider()
                    .events()
                    .append(new Event(
                            EventKind.JOB_WAIT_ALREADY_ENDED,
                            waiter.pipelineId(),
                            waiter.scheduleId(),
                            waiter.date(),
                            waiter.runId(),
                            null,
                            null,
                            "the wait for " + callback.triggerType().wireName() + " job " + callback.jobId()
                                    + " had already ended; the run keeps its recorded outcome",
                            details,
                            c.now()));
        }
        return new Completed(outcome.state().wireName(), delivered, recorded);
    }

    /** RUNNING → COMPLETED | FAILED by CAS with its event, unless another writer (a poll, logResult) decided first. */
    private void settle(JobCallback.Waiter waiter, RunCheck outcome, CompletedBy by) {
        RunStatus target = outcome.state() == RunCheckState.SUCCEEDED ? RunStatus.COMPLETED : RunStatus.FAILED;
        for (int round = 0; round < MAX_CAS_ROUNDS; round++) {
            Optional<RunState> current = c.provider().runs().get(waiter.runId());
            if (current.isEmpty() || !current.get().pipelineId().equals(waiter.pipelineId())) {
                return;
            }
            RunState run = current.get();
            if (run.status().isTerminal() || !run.status().canMoveTo(target)) {
                return;
            }
            RunState next = run.moveTo(target, c.now());
            FailureCategory category = outcome.failureCategory();
            if (target == RunStatus.FAILED && MaximumDuration.stoppedByInterlock(run)) {
                // The stop the run-checker asked for past the job's maximum: TIMEOUT, as a poll would answer.
                next = next.withFailure(
                        MaximumDuration.timeoutMessage(run, outcome.message()), FailureCategory.TIMEOUT);
            } else if (target == RunStatus.FAILED) {
                next = next.withFailure(outcome.message(), category == null ? FailureCategory.TRANSIENT : category);
            }
            if (target == RunStatus.FAILED) {
                next = JobStop.record(next, outcome.stoppedAs());
            }
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("from", run.status().name());
            details.put("to", target.name());
            details.put("version", next.version());
            details.put("completedBy", by.wireName());
            if (target == RunStatus.FAILED) {
                details.put("failureCategory", next.failureCategory().wireName());
            }
            Event event = new Event(
                    EventKind.RUN_STATE_CHANGED,
                    run.pipelineId(),
                    run.scheduleId(),
                    run.date(),
                    run.runId(),
                    null,
                    target.name(),
                    outcome.message(),
                    details,
                    next.updatedAt());
            if (c.provider()
                    .recordTransition(RunTransition.of(run.version(), next, event))
                    .applied()) {
                return;
            }
        }
    }
}
