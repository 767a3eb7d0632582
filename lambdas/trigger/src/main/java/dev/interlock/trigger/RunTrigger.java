package dev.interlock.trigger;

import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.jobs.EarlierStart;
import dev.interlock.jobs.TriggerRequest;
import dev.interlock.jobs.TriggerResult;
import dev.interlock.jobs.TriggerRunner;
import dev.interlock.jobs.TriggerStatus;
import dev.interlock.log.LogContext;
import dev.interlock.log.Metric;
import dev.interlock.log.StructuredLog;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.model.contract.TriggerInput;
import dev.interlock.model.contract.TriggerOutput;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.keys.LockKey;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.model.trigger.TriggerConfig;
import dev.interlock.model.trigger.TriggerType;
import dev.interlock.store.LockFence;
import dev.interlock.store.LockLostException;
import dev.interlock.store.Provider;
import dev.interlock.store.RunTransition;
import dev.interlock.store.StoreException;
import dev.interlock.store.TransitionOutcome;
import dev.interlock.wiring.alert.AlertPublisher;
import dev.interlock.wiring.alert.DeduplicatedAlerts;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Starts a pipeline's job for one run (statemachine/CONTRACT.md §5, Go original's bugs fixed): the run state goes PENDING → TRIGGERING
 * → RUNNING (async types) | COMPLETED (sync types) | FAILED by compare-and-swap, each step with its events, and a
 * failure alerts {@code TRIGGER_FAILED} once per (pipeline, date, schedule).
 *
 * <p>Idempotent per {@code runId}: the CAS to TRIGGERING is the claim to start the job, so only one invocation ever
 * starts it. A repeated invocation answers from the run state — RUNNING/COMPLETED with the stored metadata, FAILED
 * with the stored error — and one that finds the run still TRIGGERING (the claimer is still working, or died after
 * claiming) does not start the job again: it answers {@code running}, so the machine follows that same run and the
 * run-checker reads from the run state what became of the job (a failed answer would let a retry start a second job
 * beside a running one) — unless it is the same execution's retry of the claiming attempt (the Task's Lambda retry
 * after a lost invocation, or after a runtime restart): that one re-claims the run (TRIGGERING to a new version) and
 * starts the job {@code resumed}, so the runner first finds out whether the dead attempt had started it (the job
 * system's idempotency token, or a lookup by the run id) and follows that job, or starts it — exactly once. The run
 * log is not touched here: {@code logResult} is its one writer, so attempts are never reset.
 */
public final class RunTrigger {

    /** Re-reads allowed when concurrent writers keep moving the run between our read and our CAS. */
    private static final int MAX_CLAIM_ROUNDS = 5;

    private final Provider provider;
    private final TriggerRunner runner;
    private final AlertPublisher alerts;
    private final Clock clock;
    private final StructuredLog log;

    public RunTrigger(Provider provider, TriggerRunner runner, AlertPublisher alerts, Clock clock) {
        this(provider, runner, alerts, clock, new StructuredLog("trigger", System.out, clock));
    }

    public RunTrigger(Provider provider, TriggerRunner runner, AlertPublisher alerts, Clock clock, StructuredLog log) {
        this.provider = provider;
        this.runner = runner;
        this.alerts = alerts;
        this.clock = clock;
        this.log = log;
    }

    /**
     * Triggers the run; job and input problems are {@code failed} answers.
     *
     * @throws StoreException when the run state cannot be read or written (an infrastructure fault)
     */
    public TriggerOutput fire(TriggerInput input) {
        return answer(input).answeredAt(InterlockJson.timestamp(clock.instant()));
    }

    private TriggerOutput answer(TriggerInput input) {
        String runId = input.runId() == null ? "" : input.runId().trim();
        List<String> missing = new ArrayList<>();
        require(input.pipelineId(), "pipelineId", missing);
        require(input.scheduleId(), "scheduleId", missing);
        require(input.date(), "date", missing);
        require(runId, "runId", missing);
        if (!missing.isEmpty()) {
            return TriggerAnswers.failed(
                    runId, "trigger input is missing " + String.join(", ", missing), FailureCategory.PERMANENT);
        }
        LocalDate date;
        try {
            date = LocalDate.parse(input.date().trim());
        } catch (DateTimeParseException e) {
            return TriggerAnswers.failed(
                    runId, "trigger input date '" + input.date() + "' is not YYYY-MM-DD", FailureCategory.PERMANENT);
        }
        Job job = Job.parse(input.trigger());
        LogContext ctx =
                new LogContext(input.pipelineId(), input.scheduleId(), date.toString(), runId, input.executionName());
        Claim claim;
        try {
            claim = claim(input, date, runId, job);
        } catch (LockLostException e) {
            // Fenced out: the claim wrote nothing and no job was started; the event says why the execution stops.
            provider.events().append(e.event(runId, clock.instant()));
            log.warn(ctx, e.getMessage(), Map.of());
            throw e;
        }
        return switch (claim) {
            case Claim.Answered answered -> {
                log.info(
                        ctx,
                        "run already past PENDING; answering from its state",
                        Map.of("status", answered.output().status()));
                yield answered.output();
            }
            case Claim.Claimed claimed -> start(input, date, claimed.run(), job, ctx, claimed.resumed());
        };
    }

    /** The trigger config, or why it cannot be used. */
    private record Job(TriggerConfig config, String problem) {
        static Job parse(JsonNode node) {
            if (node == null || node.isNull() || node.isMissingNode()) {
                return new Job(null, "no trigger configuration provided");
            }
            try {
                return new Job(InterlockJson.convert(node, TriggerConfig.class), null);
            } catch (IllegalArgumentException e) {
                String reason =
                        e.getCause() instanceof JsonMappingException m ? m.getOriginalMessage() : e.getMessage();
                return new Job(null, "invalid trigger: " + reason);
            }
        }

        TriggerType type() {
            return config == null ? null : config.type();
        }
    }

    /** Whether this invocation won the right to start the job, or what to answer instead. */
    private sealed interface Claim {
        /** {@code resumed}: an earlier claim of the same execution died before recording the job. */
        record Claimed(RunState run, boolean resumed) implements Claim {}

        record Answered(TriggerOutput output) implements Claim {}
    }

    private Claim claim(TriggerInput input, LocalDate date, String runId, Job job) {
        Optional<RunState> blind = blindClaim(input, date, runId, job);
        if (blind.isPresent()) {
            return new Claim.Claimed(blind.get(), false);
        }
        for (int round = 0; round < MAX_CLAIM_ROUNDS; round++) {
            Instant now = clock.instant();
            Optional<RunState> current = provider.runs().get(runId);
            if (current.isEmpty()) {
                // resolvePipeline normally created it; this covers a direct invocation, a lost write or race.
                provider.runs().create(pending(input, date, runId, job, now));
                continue;
            }
            RunState run = current.get();
            if (!run.pipelineId().equals(input.pipelineId())) {
                return new Claim.Answered(TriggerAnswers.failed(
                        runId,
                        "run " + runId + " belongs to pipeline " + run.pipelineId() + ", not " + input.pipelineId(),
                        FailureCategory.PERMANENT));
            }
            switch (run.status()) {
                case PENDING -> {
                    RunState triggering = run.moveTo(RunStatus.TRIGGERING, now)
                            .startedBy(job.type(), blankToNull(input.executionName()));
                    TransitionOutcome outcome = provider.recordTransition(
                            RunTransition.of(run.version(), triggering, stateChanged(run, triggering, null)),
                            fence(input, date));
                    if (outcome instanceof TransitionOutcome.Applied applied) {
                        return new Claim.Claimed(applied.run(), false);
                    }
                }
                case TRIGGERING -> {
                    if (sameExecution(run, input.executionName())) {
                        Optional<RunState> reclaimed = reclaim(run, now, fence(input, date));
                        if (reclaimed.isPresent()) {
                            return new Claim.Claimed(reclaimed.get(), true);
                        }
                        continue; // the run moved meanwhile: answer from what it is now
                    }
                    // Another invocation (the one a Lambda retry repeats) is starting the job, or stopped while doing
                    // so: never start it a second time, and never answer failed, which would start a new attempt
                    // beside a job that may be running. The machine follows the run; the run-checker waits for its
                    // state to say what became of the job.
                    return new Claim.Answered(TriggerAnswers.running(runId, run.metadata()));
                }
                case RUNNING -> {
                    return new Claim.Answered(TriggerAnswers.running(runId, run.metadata()));
                }
                case COMPLETED, COMPLETED_MONITORING -> {
                    return new Claim.Answered(TriggerAnswers.completed(runId, run.metadata()));
                }
                case FAILED -> {
                    return new Claim.Answered(TriggerAnswers.failed(
                            runId,
                            run.failureMessage() == null ? "run " + runId + " failed" : run.failureMessage(),
                            run.failureCategory() == null ? FailureCategory.TRANSIENT : run.failureCategory()));
                }
                case CANCELLED -> {
                    return new Claim.Answered(
                            TriggerAnswers.failed(runId, "run " + runId + " was cancelled", FailureCategory.PERMANENT));
                }
            }
        }
        throw new StoreException("run " + runId + ": the run state kept changing while the trigger tried to claim it");
    }

    /** Whether the execution retrying now is the one that claimed {@code run} (its Task's retry). */
    private static boolean sameExecution(RunState run, String executionName) {
        String name = blankToNull(executionName);
        return name != null && name.equals(run.executionName());
    }

    /**
     * Re-claims a run its own execution's earlier attempt left TRIGGERING (that attempt died between the claim and
     * recording the job): the same status at a new version, by CAS, so the dead attempt — were it still alive — can no
     * longer record over this one. Empty when the run moved meanwhile.
     */
    private Optional<RunState> reclaim(RunState run, Instant now, LockFence fence) {
        RunState again = run.nextVersion(now);
        TransitionOutcome outcome = provider.recordTransition(
                RunTransition.of(
                        run.version(),
                        again,
                        stateChanged(
                                run,
                                again,
                                "re-claimed by the retry of execution " + run.executionName()
                                        + ": its earlier attempt died before recording the job; the job is looked up by the"
                                        + " run id before it is started")),
                fence);
        return outcome instanceof TransitionOutcome.Applied applied ? Optional.of(applied.run()) : Optional.empty();
    }

    /**
     * The claim without a read: the run as {@code resolvePipeline} created it (PENDING, version 1, created at
     * {@code runCreatedAt}) moved to TRIGGERING on the condition that it is still at version 1. The condition fails
     * for a run anything has moved since (a repeated trigger, an adopted run, a run cancelled meanwhile), which the
     * read-and-claim loop then answers from its state, so a job is still never started twice.
     */
    private Optional<RunState> blindClaim(TriggerInput input, LocalDate date, String runId, Job job) {
        Instant createdAt = parseInstant(input.runCreatedAt());
        if (createdAt == null || job.type() == null) {
            return Optional.empty();
        }
        RunState pending = pending(input, date, runId, job, createdAt);
        RunState triggering = pending.moveTo(RunStatus.TRIGGERING, clock.instant());
        TransitionOutcome outcome = provider.recordTransition(
                RunTransition.of(pending.version(), triggering, stateChanged(pending, triggering, null)),
                fence(input, date));
        return outcome instanceof TransitionOutcome.Applied applied ? Optional.of(applied.run()) : Optional.empty();
    }

    /**
     * The claim is fenced by the invoking execution's lock (owned by its name), so a holder that lost its lock never
     * starts the job; a direct invocation without an execution name is not fenced.
     */
    private static LockFence fence(TriggerInput input, LocalDate date) {
        String owner = blankToNull(input.executionName());
        return owner == null ? null : new LockFence(new LockKey(input.pipelineId(), input.scheduleId(), date), owner);
    }

    /** The run as {@code resolvePipeline} creates it: PENDING, version 1, created at {@code createdAt}. */
    private static RunState pending(TriggerInput input, LocalDate date, String runId, Job job, Instant createdAt) {
        return new RunState(
                runId,
                input.pipelineId(),
                input.scheduleId(),
                date,
                RunStatus.PENDING,
                1,
                job.type(),
                blankToNull(input.executionName()),
                Map.of(),
                null,
                null,
                createdAt,
                createdAt);
    }

    private static Instant parseInstant(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return Instant.parse(text.trim());
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private TriggerOutput start(
            TriggerInput input, LocalDate date, RunState triggering, Job job, LogContext ctx, boolean resumed) {
        TriggerResult result = job.config() == null
                ? TriggerResult.failed(job.problem(), FailureCategory.PERMANENT)
                : runner.start(new TriggerRequest(
                        input.pipelineId(),
                        input.scheduleId(),
                        date.toString(),
                        triggering.runId(),
                        job.config(),
                        resumed));
        Instant now = clock.instant();
        RunState next = switch (result.status()) {
            case RUNNING -> triggering.moveTo(RunStatus.RUNNING, now).withMetadata(result.metadata());
            case COMPLETED -> triggering.moveTo(RunStatus.COMPLETED, now).withMetadata(result.metadata());
            case FAILED ->
                triggering.moveTo(RunStatus.FAILED, now).withFailure(result.error(), result.failureCategory());
        };
        Event outcome = result.status() == TriggerStatus.FAILED
                ? event(
                        EventKind.TRIGGER_FAILED,
                        next,
                        result.status().wireName(),
                        result.error(),
                        failureDetails(job, result))
                : event(
                        EventKind.TRIGGER_FIRED,
                        next,
                        result.status().wireName(),
                        firedMessage(job, result, resumed),
                        firedDetails(result, resumed));
        TransitionOutcome written = provider.recordTransition(
                RunTransition.of(triggering.version(), next, outcome, stateChanged(triggering, next, result.error())));
        if (!written.applied()) {
            // Someone moved the run meanwhile: the machine follows the job; the stored state stays theirs.
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("triggerStatus", result.status().wireName());
            fields.put(
                    "storedStatus",
                    provider.runs()
                            .get(triggering.runId())
                            .map(r -> r.status().name())
                            .orElse("absent"));
            log.warn(ctx, "run state moved while the job was being started; not overwriting it", fields);
        }
        String runId = triggering.runId();
        log.metrics().put(ctx, Metric.TRIGGERS, result.status() == TriggerStatus.FAILED || resumed ? 0 : 1);
        return switch (result.status()) {
            case RUNNING -> {
                log.info(
                        ctx,
                        resumed ? firedMessage(job, result, true) : "job started",
                        Map.of("triggerType", job.type().wireName()));
                yield TriggerAnswers.running(runId, result.metadata());
            }
            case COMPLETED -> {
                log.info(
                        ctx,
                        resumed ? "job completed; " + firedMessage(job, result, true) : "job completed",
                        Map.of("triggerType", job.type().wireName()));
                yield TriggerAnswers.completed(runId, result.metadata());
            }
            case FAILED -> {
                alertOnce(input.pipelineId(), input.scheduleId(), date, runId, job, result, now, ctx);
                yield TriggerAnswers.failed(runId, result.error(), result.failureCategory());
            }
        };
    }

    /**
     * What the TRIGGER_FIRED event says: "job started", or for a resumed start whether the job the dead attempt may
     * have started was found and followed, or started now — and how the job system was asked.
     */
    private static String firedMessage(Job job, TriggerResult result, boolean resumed) {
        if (!resumed) {
            return "job started";
        }
        EarlierStart earlier = result.earlierStart();
        if (earlier == null) {
            return "job started again: an earlier attempt died before recording its job, and a "
                    + job.type().wireName() + " job has no token or lookup to find whether it had started it";
        }
        return switch (earlier.finding()) {
            case FOUND ->
                "job found and followed, none started: an earlier attempt started it and died before recording it ("
                        + earlier.how() + ")";
            case NONE ->
                "job started: an earlier attempt died before recording a job, and none found started by it ("
                        + earlier.how() + ")";
            case BY_TOKEN ->
                "job started with the run's idempotency token (" + earlier.how()
                        + "): a job an earlier attempt started before it died is answered, not started again";
        };
    }

    /** The job's metadata, and for a resumed start what it found ({@code earlierStart}) and how it asked. */
    private static Map<String, Object> firedDetails(TriggerResult result, boolean resumed) {
        Map<String, Object> details = new LinkedHashMap<>(result.metadata());
        if (resumed) {
            details.put("resumed", true);
            if (result.earlierStart() != null) {
                details.put("earlierStart", result.earlierStart().finding().name());
                details.put("lookup", result.earlierStart().how());
            }
        }
        return details;
    }

    /** TRIGGER_FAILED is sent once per (pipeline, date, schedule); a failed delivery gives the claim back. */
    private void alertOnce(
            String pipelineId,
            String scheduleId,
            LocalDate date,
            String runId,
            Job job,
            TriggerResult result,
            Instant now,
            LogContext ctx) {
        Map<String, Object> details = failureDetails(job, result);
        details.put("runId", runId);
        new DeduplicatedAlerts(provider.alerts(), alerts, clock, log)
                .raise(
                        AlertKind.TRIGGER_FAILED,
                        AlertLevel.ERROR,
                        pipelineId,
                        scheduleId,
                        date,
                        "Trigger failed for " + pipelineId + ": " + result.error(),
                        details,
                        ctx);
    }

    private static Map<String, Object> failureDetails(Job job, TriggerResult result) {
        Map<String, Object> details = new LinkedHashMap<>();
        if (job.type() != null) {
            details.put("triggerType", job.type().wireName());
        }
        details.put("failureCategory", result.failureCategory().wireName());
        return details;
    }

    private Event stateChanged(RunState from, RunState to, String message) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("from", from.status().name());
        details.put("to", to.status().name());
        details.put("version", to.version());
        return event(EventKind.RUN_STATE_CHANGED, to, to.status().name(), message, details);
    }

    private static Event event(
            EventKind kind, RunState run, String status, String message, Map<String, Object> details) {
        return new Event(
                kind,
                run.pipelineId(),
                run.scheduleId(),
                run.date(),
                run.runId(),
                null,
                status,
                message,
                details,
                run.updatedAt());
    }

    private static void require(String value, String name, List<String> missing) {
        if (value == null || value.isBlank()) {
            missing.add(name);
        }
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}
