package dev.interlock.orchestrator;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.jobs.RunCheck;
import dev.interlock.jobs.RunCheckState;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.keys.LockKey;
import dev.interlock.model.marker.MarkerSource;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.pipeline.RetryPolicy;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.model.trait.PostRunVerdict;
import dev.interlock.model.workflow.AttemptLedger;
import dev.interlock.model.workflow.DayJob;
import dev.interlock.store.RunLogChange;
import dev.interlock.store.RunLogKey;
import dev.interlock.store.RunTransition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Records the end of a job whose execution is gone — aborted, timed out, failed, or no longer holding the day's lock —
 * as that execution would have: the run log (COMPLETED, or FAILED with its category and the retry decision, a
 * retryable failure handed to a successor execution), the completion SLA check and the cascade, with the same code
 * as {@code logResult}, {@code checkCompletionSLA} and {@code notifyDownstream}. Whoever learns the end calls it: the
 * job-state event ({@code jobStateChange}) or the watchdog's callback check, through {@link JobCompletion} when the
 * wait it would end no longer exists. A job that succeeded after Interlock recorded its run FAILED is the truth: the
 * run and the day become COMPLETED with {@code JOB_SUCCEEDED_LATE} (event and alert) and the day cascades.
 *
 * <p>The run-log write holds no lock: it is one transition conditioned on the run's own version, and it is idempotent
 * (the run log keeps one end per run, cascade markers are keyed by the run, the SLA alert is sent once), so the event,
 * the watchdog and a duplicate of either record the day once. While the waiting execution still holds the day's lock it
 * records the end itself, and nothing is written here.
 */
final class DayCompletion {

    /** Run metadata: who recorded the day's end from outside the execution (the job-state event or the watchdog). */
    static final String END_RECORDED_BY = "interlock_end_recorded_by";

    private static final int TRANSITION_ATTEMPTS = 3;

    /** What recording did. */
    enum Result {
        /** The execution that waited still holds the day's lock: it records the end itself. */
        LIVE_EXECUTION,
        /** The run has no end to record (not terminal, cancelled, or unknown). */
        NOTHING_TO_RECORD,
        /** The run log already has the run's end. */
        ALREADY_RECORDED,
        /** The day's end was recorded now. */
        RECORDED,
        /** A job Interlock had given up on succeeded: the day was recorded COMPLETED now. */
        RECORDED_LATE,
        /** The job succeeded but a required post-run check did not pass: the day was recorded FAILED VERIFICATION. */
        RECORDED_UNVERIFIED;

        boolean recorded() {
            return this == RECORDED || this == RECORDED_LATE || this == RECORDED_UNVERIFIED;
        }
    }

    private final Collaborators c;

    DayCompletion(Collaborators collaborators) {
        this.c = collaborators;
    }

    /**
     * Records the end {@code job} of run {@code runId} unless execution {@code executionName} (the one that waited for
     * it) still holds the day's lock.
     */
    Result afterJobEnd(String pipelineId, String runId, String executionName, RunCheck job, String learnedBy) {
        Optional<RunState> found =
                c.provider().runs().get(runId).filter(r -> r.pipelineId().equals(pipelineId));
        if (found.isEmpty()) {
            return Result.NOTHING_TO_RECORD;
        }
        RunState first = found.get();
        LockKey lock = new LockKey(first.pipelineId(), first.scheduleId(), first.date());
        String waiter = executionName != null ? executionName : first.executionName();
        if (c.provider()
                .locks()
                .holder(lock)
                .filter(h -> h.owner().equals(waiter))
                .isPresent()) {
            return Result.LIVE_EXECUTION;
        }
        ActionRequest request = request(OrchestratorAction.LOG_RESULT, first, waiter, null);
        RunLogKey key = new RunLogKey(first.pipelineId(), first.date(), first.scheduleId());
        boolean succeeded = job.state() == RunCheckState.SUCCEEDED;
        for (int attempt = 0; attempt < TRANSITION_ATTEMPTS; attempt++) {
            RunState run = c.provider().runs().get(runId).orElse(first);
            Optional<RunLog> log = c.provider().runLogs().get(key);
            Result result;
            if (succeeded
                    && run.status() == RunStatus.FAILED
                    && run.failureCategory() != FailureCategory.VERIFICATION) {
                result = late(request, run, key, learnedBy);
            } else if (run.status() == RunStatus.COMPLETED || run.status() == RunStatus.FAILED) {
                if (DayJob.recorded(run, log)) {
                    if (run.status() == RunStatus.COMPLETED && run.metadata().containsKey(END_RECORDED_BY)) {
                        // Recorded from outside before, perhaps by a call that stopped before its cascade: the
                        // cascade and the SLA check write only what is missing.
                        completeDay(run, waiter);
                    }
                    return Result.ALREADY_RECORDED;
                }
                result = run.status() == RunStatus.COMPLETED
                        ? completed(request, run, key, learnedBy)
                        : failed(request, run, key, log, learnedBy);
            } else {
                return Result.NOTHING_TO_RECORD;
            }
            if (result != null) {
                if (result == Result.RECORDED_LATE
                        || result == Result.RECORDED && run.status() == RunStatus.COMPLETED) {
                    completeDay(run, waiter);
                }
                return result;
            }
        }
        throw new IllegalStateException(
                "run " + runId + " kept changing while its end was recorded (" + TRANSITION_ATTEMPTS + " attempts)");
    }

    /** The run COMPLETED (its job succeeded), the run log not yet: the run log's completion, as logResult writes it. */
    private Result completed(ActionRequest request, RunState run, RunLogKey key, String learnedBy) {
        Optional<PostRunVerdict> checked = postRunVerdict(request);
        if (checked.isPresent()) {
            PostRunVerdict verdict = checked.get();
            if (!verdict.passed()) {
                RunState unverified = run.failedVerification(verdict.message(), c.now())
                        .withMetadata(Map.of(END_RECORDED_BY, learnedBy));
                Result result =
                        failed(request, unverified, key, c.provider().runLogs().get(key), learnedBy, run);
                return result == null ? null : Result.RECORDED_UNVERIFIED;
            }
        }
        List<Event> events = new ArrayList<>();
        events.add(recordedEvent(request, run, learnedBy));
        return write(
                        run,
                        run.dayCompleted(c.now()).withMetadata(Map.of(END_RECORDED_BY, learnedBy)),
                        key,
                        RunLogChanges.completedChange(request, run.proceededWithout(), run.forced(), c.now()),
                        events)
                ? Result.RECORDED
                : null;
    }

    /**
     * A job Interlock had given up on succeeded: after its post-run checks, as any success, the run and the day
     * COMPLETED, with an event and an alert. A required check that does not pass leaves the day FAILED: the run's
     * category becomes {@code VERIFICATION} (so the same job end told again records nothing more) and the event says
     * the job succeeded late but unverified.
     */
    private Result late(ActionRequest request, RunState run, RunLogKey key, String learnedBy) {
        Optional<PostRunVerdict> verdict = postRunVerdict(request);
        if (verdict.isPresent() && !verdict.get().passed()) {
            return lateUnverified(request, run, verdict.get(), learnedBy);
        }
        Map<String, Object> details = lateDetails(request, run, learnedBy);
        String message = "the job of run " + run.runId() + " succeeded after Interlock had recorded it FAILED"
                + (run.failureCategory() == null
                        ? ""
                        : " (" + run.failureCategory().wireName() + ")")
                + "; the day is COMPLETED after all";
        List<Event> events = List.of(
                c.event(request, EventKind.RUN_STATE_CHANGED, RunStatus.COMPLETED.wireName(), message, details),
                c.event(request, EventKind.JOB_SUCCEEDED_LATE, RunLogStatus.COMPLETED.wireName(), message, details));
        RunState next = run.completedLate(c.now()).withMetadata(Map.of(END_RECORDED_BY, learnedBy));
        if (!write(
                run,
                next,
                key,
                RunLogChanges.completedChange(request, run.proceededWithout(), run.forced(), c.now()),
                events)) {
            return null;
        }
        c.alerts()
                .raise(
                        AlertKind.JOB_SUCCEEDED_LATE,
                        AlertLevel.WARNING,
                        run.pipelineId(),
                        run.scheduleId(),
                        run.date(),
                        "Job of " + run.pipelineId() + " succeeded late: " + message,
                        details,
                        request.logContext());
        return Result.RECORDED_LATE;
    }

    /**
     * The verdict of the pipeline's post-run checks on the run's day, recorded as a {@code POST_RUN_CHECKED} event;
     * empty for a pipeline without checks (or a dry run, which starts no job).
     */
    private Optional<PostRunVerdict> postRunVerdict(ActionRequest request) {
        return c.pipeline(request).filter(Collaborators::checksAfterRun).map(p -> c.judgePostRun(request, p));
    }

    /** A late success whose post-run checks did not pass: the day stays FAILED, the run now FAILED VERIFICATION. */
    private Result lateUnverified(ActionRequest request, RunState run, PostRunVerdict verdict, String learnedBy) {
        Map<String, Object> details = lateDetails(request, run, learnedBy);
        String message = "the job of run " + run.runId() + " succeeded after Interlock had recorded it FAILED, but "
                + verdict.message() + "; the day stays FAILED";
        RunState next = run.withFailure(verdict.message(), FailureCategory.VERIFICATION)
                .nextVersion(c.now())
                .withMetadata(Map.of(END_RECORDED_BY, learnedBy));
        boolean written = c.provider()
                .recordTransition(RunTransition.of(
                        run.version(),
                        next,
                        c.event(
                                request,
                                EventKind.JOB_SUCCEEDED_LATE,
                                RunLogStatus.FAILED.wireName(),
                                message,
                                details)))
                .applied();
        return written ? Result.RECORDED_UNVERIFIED : null;
    }

    /** The details of a late success's events: who learned of it, and how the run had failed. */
    private static Map<String, Object> lateDetails(ActionRequest request, RunState run, String learnedBy) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("learnedBy", learnedBy);
        details.put("executionName", request.executionName() == null ? "" : request.executionName());
        details.put("failureMessage", run.failureMessage() == null ? "" : run.failureMessage());
        details.put(
                "failureCategory",
                run.failureCategory() == null ? "" : run.failureCategory().wireName());
        return details;
    }

    /** The run FAILED, the run log not yet: the failure as logResult writes it; a retry goes to a successor. */
    private Result failed(
            ActionRequest request, RunState run, RunLogKey key, Optional<RunLog> current, String learnedBy) {
        return failed(request, run, key, current, learnedBy, null);
    }

    /**
     * {@link #failed(ActionRequest, RunState, RunLogKey, Optional, String)} for {@code run} as it is to be written;
     * {@code stored} is the run as the store holds it (the CAS base) when that differs (a success that failed its
     * post-run checks), else null.
     */
    private Result failed(
            ActionRequest request,
            RunState run,
            RunLogKey key,
            Optional<RunLog> current,
            String learnedBy,
            RunState stored) {
        FailureCategory category = run.failureCategory() == null ? FailureCategory.TRANSIENT : run.failureCategory();
        String message =
                run.failureMessage() == null || run.failureMessage().isBlank() ? "run failed" : run.failureMessage();
        Optional<PipelineConfig> pipeline = c.pipeline(request);
        RetryPolicy policy = pipeline.map(PipelineConfig::retry).orElse(RetryPolicy.DEFAULT);
        RunLog next = AttemptLedger.afterFailure(
                current,
                run.pipelineId(),
                run.date(),
                run.scheduleId(),
                run.runId(),
                request.executionName(),
                message,
                category,
                c.now());
        int attempt = AttemptLedger.entryOf(next, run.runId(), RunLogStatus.FAILED)
                .orElseThrow()
                .attempt();
        boolean retryable = pipeline.isPresent() && AttemptLedger.retryableInExecution(policy, category, attempt);
        FailureNotices notices = new FailureNotices(c);
        LogResult.Request body = new LogResult.Request(
                RunLogStatus.FAILED.wireName(),
                category.wireName(),
                message,
                "run",
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null);
        List<Event> events = new ArrayList<>(notices.failureEvents(
                request, body, category, message, attempt, retryable, policy, next.status() == RunLogStatus.COMPLETED));
        events.add(recordedEvent(request, run, learnedBy));
        RunLogChange change = RunLogChanges.failedChange(
                request, message, category, null, run.proceededWithout(), run.forced(), c.now());
        boolean written = stored == null
                ? write(run, touched(run, learnedBy), key, change, events)
                : write(stored, run, key, change, events);
        if (!written) {
            return null;
        }
        if (retryable) {
            // No execution is left to wait out the backoff: a successor waits for it at the run-log gate.
            new Successors(c).handOver(request, MarkerSource.RETRY, request.executionName(), false);
        } else if (next.status() != RunLogStatus.COMPLETED) {
            notices.alertFailure(request, body, category, message, attempt, false, policy, pipeline.isPresent());
        }
        return Result.RECORDED;
    }

    /**
     * The completion SLA, judged on the time the day's completion was recorded (after its post-run checks passed), and
     * the cascade, as {@code logResult} and {@code notifyDownstream} do them.
     */
    private void completeDay(RunState run, String executionName) {
        RunLogKey key = new RunLogKey(run.pipelineId(), run.date(), run.scheduleId());
        Instant completedAt = c.provider()
                .runLogs()
                .get(key)
                .flatMap(l -> AttemptLedger.entryOf(l, run.runId(), RunLogStatus.COMPLETED))
                .map(e -> e.completedAt())
                .orElseGet(c::now);
        new CheckCompletionSla(c)
                .judgeCompletion(
                        request(OrchestratorAction.LOG_RESULT, run, executionName, null), null, completedAt, true);
        new NotifyDownstream(c).run(request(OrchestratorAction.NOTIFY_DOWNSTREAM, run, executionName, null));
    }

    /** The run-log change and events with a CAS on the run's version: false when the run moved meanwhile. */
    private boolean write(RunState run, RunState next, RunLogKey key, RunLogChange change, List<Event> events) {
        return c.provider()
                .recordTransition(
                        new RunTransition(run.version(), next, new RunTransition.RunLogUpdate(key, change), events))
                .applied();
    }

    /** The run at its next version, marked with who recorded its end: what conditions the run-log write. */
    private static RunState touched(RunState run, String learnedBy) {
        return run.nextVersion(run.updatedAt()).withMetadata(Map.of(END_RECORDED_BY, learnedBy));
    }

    private Event recordedEvent(ActionRequest request, RunState run, String learnedBy) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("learnedBy", learnedBy);
        details.put("executionName", request.executionName() == null ? "" : request.executionName());
        details.put("runStatus", run.status().wireName());
        return c.event(
                request,
                EventKind.JOB_END_RECORDED,
                run.status().wireName(),
                "the job of run " + run.runId() + " ended " + run.status().wireName() + " after execution "
                        + request.executionName() + " was gone; recorded by the " + learnedBy
                        + " as the execution would have",
                details);
    }

    private static ActionRequest request(
            OrchestratorAction action, RunState run, String executionName, ObjectNode payload) {
        return new ActionRequest(
                action,
                run.pipelineId(),
                run.scheduleId(),
                run.date(),
                run.runId(),
                executionName,
                payload == null ? JsonNodeFactory.instance.objectNode() : payload);
    }
}
