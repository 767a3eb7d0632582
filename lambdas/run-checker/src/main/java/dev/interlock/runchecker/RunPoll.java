package dev.interlock.runchecker;

import dev.interlock.jobs.JobCanceller;
import dev.interlock.jobs.RunCheck;
import dev.interlock.jobs.RunCheckRequest;
import dev.interlock.jobs.RunCheckState;
import dev.interlock.jobs.RunChecker;
import dev.interlock.log.LogContext;
import dev.interlock.log.StructuredLog;
import dev.interlock.model.contract.RunCheckInput;
import dev.interlock.model.contract.RunCheckOutput;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.run.JobStop;
import dev.interlock.model.run.MaximumDuration;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.model.trigger.JobStateRule;
import dev.interlock.model.trigger.TriggerType;
import dev.interlock.model.workflow.ExecutionBudget;
import dev.interlock.store.Provider;
import dev.interlock.store.RunTransition;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One poll of a started job (statemachine/CONTRACT.md §5, Go original's bugs fixed). The run state is the truth: a run another writer
 * already ended is answered from its state, a run still being started (TRIGGERING, e.g. after the trigger Lambda was
 * retried) is waited for, and a RUNNING run is polled with the job ids stored on it. When the job has finished the run
 * moves RUNNING → COMPLETED | FAILED by compare-and-swap with a {@code RUN_STATE_CHANGED} event, so an async run never
 * stays RUNNING forever. A transient failure to check is {@code running} (the next poll retries).
 *
 * <p>Following (when the request says what it may take): a job still running after its poll window is reported
 * overdue once ({@code RUN_OVERDUE}) and followed on — never started a second time; past the pipeline's maximum job
 * duration it is cancelled once ({@code RUN_CANCEL_REQUESTED}) and answered {@code failed}/TIMEOUT when it stopped, so
 * the retry that may follow never runs beside it. Before the execution's time budget ends, a job that did not stop is
 * answered {@code failed}/PERMANENT (not retried, so it never runs twice) instead of letting the execution time out.
 */
public final class RunPoll {

    /** Run metadata: when the job was first seen past its poll window. */
    public static final String OVERDUE_AT = "interlock_overdue_at";
    /** Run metadata: when Interlock asked the job system to stop the job ({@link MaximumDuration}). */
    public static final String CANCEL_REQUESTED_AT = MaximumDuration.CANCEL_REQUESTED_AT;

    /** Re-reads allowed when a concurrent writer moves the run between our read and our CAS. */
    private static final int MAX_SETTLE_ROUNDS = 3;

    private final Provider provider;
    private final RunChecker checker;
    private final JobCanceller canceller;
    private final Clock clock;
    private final StructuredLog log;

    public RunPoll(Provider provider, RunChecker checker, JobCanceller canceller, Clock clock) {
        this(provider, checker, canceller, clock, new StructuredLog("run-checker", System.out, clock));
    }

    public RunPoll(Provider provider, RunChecker checker, JobCanceller canceller, Clock clock, StructuredLog log) {
        this.provider = provider;
        this.checker = checker;
        this.canceller = canceller;
        this.clock = clock;
        this.log = log;
    }

    /**
     * Polls the run's job once.
     *
     * @throws dev.interlock.store.StoreException when the run cannot be read or its outcome recorded
     */
    public RunCheckOutput check(RunCheckInput input) {
        LogContext ctx = new LogContext(input.pipelineId(), input.scheduleId(), input.date(), input.runId(), null);
        TriggerType type;
        try {
            type = TriggerType.fromJson(input.triggerType());
        } catch (IllegalArgumentException e) {
            RunCheckOutput out = RunCheckAnswers.failed(e.getMessage(), FailureCategory.PERMANENT);
            settle(input, RunStatus.FAILED, out, null, ctx);
            return out;
        }
        String runId = input.runId() == null ? "" : input.runId().trim();
        Optional<RunState> stored = runId.isEmpty()
                ? Optional.empty()
                : provider.runs().get(runId).filter(r -> r.pipelineId().equals(input.pipelineId()));
        Budget budget = Budget.of(input.follow(), clock.instant());
        Map<String, String> metadata = text(input.metadata());
        if (stored.isPresent()) {
            RunState run = stored.get();
            switch (run.status()) {
                case COMPLETED, COMPLETED_MONITORING -> {
                    return new RunCheckOutput(
                            RunCheckState.SUCCEEDED.wireName(), "run " + runId + " already completed", "");
                }
                case FAILED -> {
                    return RunCheckAnswers.failed(
                            run.failureMessage() == null ? "run " + runId + " failed" : run.failureMessage(),
                            run.failureCategory() == null ? FailureCategory.TRANSIENT : run.failureCategory());
                }
                case CANCELLED -> {
                    return RunCheckAnswers.failed("run " + runId + " was cancelled", FailureCategory.PERMANENT);
                }
                case PENDING, TRIGGERING -> {
                    return awaitStart(input, run, budget, ctx);
                }
                case RUNNING -> metadata.putAll(run.metadata());
            }
        }
        RunCheck check = checker.check(jobRequest(input, type, metadata));
        RunCheckOutput out = RunCheckAnswers.of(check);
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("triggerType", type.wireName());
        fields.put("state", out.state());
        log.info(ctx, "run polled", fields);
        if (check.state() != RunCheckState.RUNNING) {
            return ended(input, stored.orElse(null), check, ctx);
        }
        if (stored.isEmpty() || budget == null) {
            return out;
        }
        return follow(input, stored.get(), type, metadata, out, budget, ctx);
    }

    /** The job ended: the run moves to its terminal status; a job Interlock stopped past its maximum failed TIMEOUT. */
    private RunCheckOutput ended(RunCheckInput input, RunState run, RunCheck check, LogContext ctx) {
        RunCheckOutput out = RunCheckAnswers.of(check);
        boolean succeeded = check.state() == RunCheckState.SUCCEEDED;
        if (!succeeded && run != null && MaximumDuration.stoppedByInterlock(run)) {
            out = RunCheckAnswers.failed(MaximumDuration.timeoutMessage(run, out.message()), FailureCategory.TIMEOUT);
        }
        // A stop the job system reported is recorded as one (JobStop: OpenLineage ABORT); null for any other end.
        settle(input, succeeded ? RunStatus.COMPLETED : RunStatus.FAILED, out, check.stoppedAs(), ctx);
        return out;
    }

    /** The job is still running: overdue once, cancelled past its maximum, and never past the execution's budget. */
    private RunCheckOutput follow(
            RunCheckInput input,
            RunState run,
            TriggerType type,
            Map<String, String> metadata,
            RunCheckOutput out,
            Budget budget,
            LogContext ctx) {
        Instant now = budget.now();
        if (!run.metadata().containsKey(OVERDUE_AT) && !now.isBefore(budget.overdueAt())) {
            run = annotate(
                    run,
                    OVERDUE_AT,
                    now,
                    EventKind.RUN_OVERDUE,
                    "TIMEOUT",
                    "job outlived its poll window ("
                            + budget.pollLimit() + " polls of " + budget.pollIntervalSeconds()
                            + " s); following the same job, up to "
                            + "maxJobDurationSeconds (" + budget.maxJobDurationSeconds() + " s)",
                    ctx);
        }
        String cancelledAt = run.metadata().get(CANCEL_REQUESTED_AT);
        if (cancelledAt != null) {
            if (budget.lastPollWhileStopping(type)) {
                return giveUp(
                        input,
                        "job did not stop after Interlock asked it to at " + cancelledAt
                                + "; the execution's time budget ends, and the job is not started again beside itself",
                        ctx);
            }
            return new RunCheckOutput(
                    RunCheckState.RUNNING.wireName(),
                    "cancel requested at " + cancelledAt + "; waiting for the job to stop: " + out.message(),
                    "");
        }
        if (!now.isBefore(budget.cancelAt())) {
            // The intent first: the stop's own job-state event may settle the run before this poll records the
            // request, and must find it a stop past the maximum (TIMEOUT), not one someone else asked for.
            run = annotate(run, MaximumDuration.STOP_ASKED_AT, now, null, null, null, ctx);
            JobCanceller.Cancellation cancellation = canceller.cancel(jobRequest(input, type, metadata));
            if (cancellation.requested()) {
                RunState cancelled = annotate(
                        run,
                        CANCEL_REQUESTED_AT,
                        now,
                        EventKind.RUN_CANCEL_REQUESTED,
                        "CANCELLING",
                        "job ran longer than maxJobDurationSeconds (" + budget.maxJobDurationSeconds() + " s): "
                                + cancellation.message(),
                        ctx);
                // Most job systems stop a job at once (or within seconds): a stop already seen is answered now,
                // so neither a poll interval nor a callback wait lies between the stop and the retry it allows.
                RunCheck after = checker.check(jobRequest(input, type, metadata));
                if (after.state() != RunCheckState.RUNNING) {
                    return ended(input, cancelled, after, ctx);
                }
                if (budget.lastPollWhileStopping(type)) {
                    return giveUp(
                            input,
                            "job cancelled after maxJobDurationSeconds, but the execution's time budget ends "
                                    + "before its stop could be seen; it is not started again beside itself",
                            ctx);
                }
                return new RunCheckOutput(
                        RunCheckState.RUNNING.wireName(), "cancel requested: " + cancellation.message(), "");
            }
            if (budget.lastPoll()) {
                return giveUp(
                        input,
                        "job ran longer than maxJobDurationSeconds and could not be cancelled ("
                                + cancellation.message() + "); it is not started again beside itself",
                        ctx);
            }
            log.warn(ctx, "cancel refused; retrying at the next poll", Map.of("reason", cancellation.message()));
            return new RunCheckOutput(
                    RunCheckState.RUNNING.wireName(), cancellation.message() + "; retrying at the next poll", "");
        }
        if (budget.lastPoll()) {
            return giveUp(
                    input,
                    "the execution's time budget ends before the job's maxJobDurationSeconds; the job keeps "
                            + "running and is not started again beside itself",
                    ctx);
        }
        return out;
    }

    /** A run still being started by another trigger invocation: wait for it, but not past the execution's budget. */
    private RunCheckOutput awaitStart(RunCheckInput input, RunState run, Budget budget, LogContext ctx) {
        if (budget != null && budget.lastPoll()) {
            return giveUp(
                    input,
                    "run " + run.runId() + " stayed " + run.status().name() + " since "
                            + InterlockJson.timestamp(run.updatedAt())
                            + ": the trigger invocation that started the job never recorded "
                            + "it; the job is not started again (check the job system)",
                    ctx);
        }
        return new RunCheckOutput(
                RunCheckState.RUNNING.wireName(),
                "run " + run.runId() + " is " + run.status().name()
                        + ": waiting for the trigger to record the job it starts",
                "");
    }

    /** Ends following without a retry: the job may still run, so another attempt could run beside it. */
    private RunCheckOutput giveUp(RunCheckInput input, String message, LogContext ctx) {
        RunCheckOutput out = RunCheckAnswers.failed(message, FailureCategory.PERMANENT);
        log.warn(ctx, "stopped following the job", Map.of("reason", message));
        settle(input, RunStatus.FAILED, out, null, ctx);
        return out;
    }

    /**
     * Records a fact about the running job on its run (CAS) with its event ({@code kind} null: none); the run as it is
     * afterwards.
     */
    private RunState annotate(
            RunState run, String key, Instant now, EventKind kind, String status, String message, LogContext ctx) {
        RunState current = run;
        for (int round = 0; round < MAX_SETTLE_ROUNDS; round++) {
            if (current.metadata().containsKey(key) || current.status() != RunStatus.RUNNING) {
                return current;
            }
            RunState next = current.nextVersion(now).withMetadata(Map.of(key, InterlockJson.timestamp(now)));
            Event event = kind == null
                    ? null
                    : new Event(
                            kind,
                            current.pipelineId(),
                            current.scheduleId(),
                            current.date(),
                            current.runId(),
                            null,
                            status,
                            message,
                            Map.of(key, InterlockJson.timestamp(now)),
                            now);
            Event[] events = kind == null ? new Event[0] : new Event[] {event};
            if (provider.recordTransition(RunTransition.of(current.version(), next, events))
                    .applied()) {
                return next;
            }
            Optional<RunState> reread = provider.runs().get(current.runId());
            if (reread.isEmpty()) {
                return current;
            }
            current = reread.get();
        }
        log.warn(ctx, "run kept changing; " + key + " not recorded", Map.of());
        return current;
    }

    /** Moves the run to its terminal status unless another writer already decided it. */
    private void settle(RunCheckInput input, RunStatus target, RunCheckOutput out, String stoppedAs, LogContext ctx) {
        String runId = input.runId() == null ? "" : input.runId().trim();
        if (runId.isEmpty()) {
            log.warn(ctx, "poll without runId; no run state to record the outcome on", Map.of("state", out.state()));
            return;
        }
        for (int round = 0; round < MAX_SETTLE_ROUNDS; round++) {
            Optional<RunState> current = provider.runs().get(runId);
            if (current.isEmpty()) {
                log.warn(ctx, "run state not found; outcome not recorded on it", Map.of("state", out.state()));
                return;
            }
            RunState run = current.get();
            if (!run.pipelineId().equals(input.pipelineId())) {
                log.warn(
                        ctx, "run belongs to another pipeline; not touched", Map.of("runPipelineId", run.pipelineId()));
                return;
            }
            if (run.status().isTerminal() || !run.status().canMoveTo(target)) {
                // A repeated poll, logResult or an operator got there first: their decision stands.
                return;
            }
            RunState next = run.moveTo(target, clock.instant());
            if (target == RunStatus.FAILED) {
                next = JobStop.record(
                        next.withFailure(out.message(), FailureCategory.fromJson(out.failureCategory())), stoppedAs);
            }
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("from", run.status().name());
            details.put("to", target.name());
            details.put("version", next.version());
            if (!out.failureCategory().isEmpty()) {
                details.put("failureCategory", out.failureCategory());
            }
            Event event = new Event(
                    EventKind.RUN_STATE_CHANGED,
                    run.pipelineId(),
                    run.scheduleId(),
                    run.date(),
                    runId,
                    null,
                    target.name(),
                    out.message(),
                    details,
                    next.updatedAt());
            if (provider.recordTransition(RunTransition.of(run.version(), next, event))
                    .applied()) {
                return;
            }
        }
        log.warn(ctx, "run state kept changing; outcome left to the other writers", Map.of("state", out.state()));
    }

    /**
     * The follow budget of a request at {@code now}; null when the request carries none (or none that can be read),
     * which makes the poll a plain one.
     */
    private record Budget(
            Instant now,
            Instant overdueAt,
            Instant cancelAt,
            Instant end,
            int pollIntervalSeconds,
            int pollLimit,
            int maxJobDurationSeconds,
            int nextPollSeconds) {

        static Budget of(RunCheckInput.Follow follow, Instant now) {
            if (follow == null
                    || follow.since() == null
                    || follow.executionStartTime() == null
                    || follow.executionTimeoutSeconds() == null
                    || follow.executionTimeoutSeconds() < 1) {
                return null;
            }
            try {
                Instant since = Instant.parse(follow.since().trim());
                int interval = Math.max(1, follow.pollIntervalSeconds() == null ? 1 : follow.pollIntervalSeconds());
                int limit = Math.max(1, follow.pollLimit() == null ? 1 : follow.pollLimit());
                int max = Math.max(
                        interval, follow.maxJobDurationSeconds() == null ? interval : follow.maxJobDurationSeconds());
                Instant end = new ExecutionBudget(
                                Instant.parse(follow.executionStartTime().trim()), follow.executionTimeoutSeconds())
                        .end();
                int next = follow.nextPollSeconds() == null ? interval : Math.max(1, follow.nextPollSeconds());
                return new Budget(
                        now,
                        since.plusSeconds((long) interval * limit),
                        since.plusSeconds(max),
                        end,
                        interval,
                        limit,
                        max,
                        next);
            } catch (DateTimeException e) {
                return null;
            }
        }

        /** The next poll would come after the execution's budget: decide now. */
        boolean lastPoll() {
            return now.plusSeconds(nextPollSeconds).isAfter(end);
        }

        /**
         * {@link #lastPoll()} for a job Interlock asked to stop. A job that completes by callback is not looked at
         * again at the callback wait's timeout but when its stop's job-state event ends the wait, which a stop
         * brings within a poll interval; judging it by the wait's timeout (the job's whole maximum) would give up at
         * once, PERMANENT, instead of failing it TIMEOUT as {@code retry} expects.
         */
        boolean lastPollWhileStopping(TriggerType type) {
            int horizon = JobStateRule.forTriggerType(type).isPresent() ? pollIntervalSeconds : nextPollSeconds;
            return now.plusSeconds(horizon).isAfter(end);
        }
    }

    /** What the job system is asked about the run's job: its ids, and the trigger's header templates. */
    private static RunCheckRequest jobRequest(RunCheckInput input, TriggerType type, Map<String, String> metadata) {
        return new RunCheckRequest(
                input.pipelineId(),
                input.scheduleId(),
                input.date(),
                input.runId(),
                type,
                metadata,
                headers(input.headers()));
    }

    /** Header templates without null values (a YAML {@code key:} yields one); names and values are never logged. */
    private static Map<String, String> headers(Map<String, String> headers) {
        Map<String, String> result = new LinkedHashMap<>();
        if (headers != null) {
            headers.forEach((k, v) -> {
                if (k != null && v != null) {
                    result.put(k, v);
                }
            });
        }
        return result;
    }

    /** Metadata values as text: ids may arrive as numbers (a Databricks run id) after a JSON round trip. */
    private static Map<String, String> text(Map<String, Object> metadata) {
        Map<String, String> result = new LinkedHashMap<>();
        if (metadata != null) {
            metadata.forEach((k, v) -> {
                if (k != null && v != null) {
                    result.put(k, String.valueOf(v));
                }
            });
        }
        return result;
    }
}
