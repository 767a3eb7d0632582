package dev.interlock.orchestrator;

import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.model.archetype.Archetype;
import dev.interlock.model.archetype.TraitResolution;
import dev.interlock.model.catalog.ArchetypeCatalog;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.pipeline.RetryPolicy;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.model.schedule.ScheduleWindow;
import dev.interlock.model.trait.ResolvedTrait;
import dev.interlock.model.trigger.AirflowTrigger;
import dev.interlock.model.trigger.DatabricksTrigger;
import dev.interlock.model.trigger.EmrServerlessTrigger;
import dev.interlock.model.trigger.EmrTrigger;
import dev.interlock.model.trigger.GlueTrigger;
import dev.interlock.model.trigger.HttpTrigger;
import dev.interlock.model.trigger.JobStateRule;
import dev.interlock.model.trigger.LambdaTrigger;
import dev.interlock.model.trigger.StepFunctionTrigger;
import dev.interlock.model.trigger.TriggerConfig;
import dev.interlock.model.workflow.AttemptLedger;
import dev.interlock.model.workflow.DayJob;
import dev.interlock.store.Provider;
import dev.interlock.store.RunLogKey;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * {@code resolvePipeline}: everything the rest of the execution needs (traits, trigger, waits and limits) and a new
 * run in PENDING. A pipeline that cannot run (missing, no trigger, unknown archetype, invalid config) is recorded as
 * a PERMANENT failure of the day and alerted once.
 */
public final class ResolvePipeline implements Action {

    /** Payload of an error: nothing the machine reads after it. */
    public record Unresolved() {}

    /** Payload of proceed: every field always present (statemachine/CONTRACT.md, resolvePipeline). */
    public record Resolved(
            String runId,
            List<ResolvedTrait> traits,
            TriggerConfig trigger,
            String triggerType,
            Map<String, String> triggerHeaders,
            int evaluationIntervalSeconds,
            int pollIntervalSeconds,
            int pollLimit,
            int maxJobDurationSeconds,
            boolean completionByCallback,
            int callbackTimeoutSeconds,
            int nextPollSeconds,
            Monitoring monitoring,
            Retry retry,
            boolean dryRun,
            String runCreatedAt,
            String completionDeadline,
            boolean postRunChecks) {}

    /**
     * Request payload: what the gates before already read, so that it is not read again.
     *
     * @param archetype     the archetype the pipeline named when {@code checkExclusion} read it ({@code ""} unknown)
     * @param attemptNumber the attempt {@code checkRunLog} admitted (0 unknown: the run log is read)
     */
    record Request(String archetype, Integer attemptNumber) {}

    /** Resolved monitoring loop. */
    public record Monitoring(boolean enabled, int intervalSeconds, long durationSeconds) {}

    /** The retry policy, each field defaulted (informational for the machine). */
    public record Retry(int maxAttempts, int backoffSeconds, double backoffMultiplier, List<String> retryableFailures) {
        static Retry of(RetryPolicy policy) {
            return new Retry(
                    policy.maxAttempts(),
                    policy.backoffSeconds(),
                    policy.backoffMultiplier(),
                    policy.retryableFailures().stream()
                            .map(FailureCategory::wireName)
                            .toList());
        }
    }

    private final Collaborators collaborators;

    public ResolvePipeline(Collaborators collaborators) {
        this.collaborators = collaborators;
    }

    @Override
    public Outcome run(ActionRequest request) {
        Request body = request.payload(Request.class);
        String expectedArchetype = body.archetype() == null || body.archetype().isBlank() ? null : body.archetype();
        Provider.PipelineAndArchetype read =
                collaborators.provider().pipelineAndArchetype(request.pipelineId(), expectedArchetype);
        Optional<PipelineConfig> found = read.pipeline();
        if (found.isEmpty()) {
            return unresolvable(request, Collaborators.notFound(request));
        }
        PipelineConfig pipeline = found.get();
        if (pipeline.trigger() == null) {
            return unresolvable(request, "pipeline " + pipeline.name() + " has no trigger");
        }
        if (pipeline.archetype() == null || pipeline.archetype().isBlank()) {
            return unresolvable(request, "pipeline " + pipeline.name() + " has no archetype");
        }
        // The pipeline changed its archetype since checkExclusion read it: the one it names now is read.
        Optional<Archetype> stored = pipeline.archetype().equals(expectedArchetype)
                ? read.archetype()
                : collaborators.provider().archetypes().get(pipeline.archetype());
        Optional<Archetype> archetype =
                stored.or(() -> ArchetypeCatalog.bundled().find(pipeline.archetype()));
        if (archetype.isEmpty()) {
            return unresolvable(request, "unknown archetype '" + pipeline.archetype() + "'");
        }
        PipelineTuning tuning;
        try {
            tuning = PipelineTuning.of(pipeline, collaborators.settings().executionTimeoutSeconds());
        } catch (IllegalArgumentException e) {
            return unresolvable(request, "invalid pipeline config: " + e.getMessage());
        }
        String completionDeadline;
        try {
            Instant deadline = ScheduleWindow.of(pipeline, request.scheduleId(), request.date())
                    .completionDeadline();
            completionDeadline = deadline == null ? "" : InterlockJson.timestamp(deadline);
        } catch (IllegalArgumentException | DateTimeException e) {
            return unresolvable(request, "invalid pipeline config: completion deadline: " + e.getMessage());
        }
        List<ResolvedTrait> traits =
                TraitResolution.resolve(pipeline, archetype.get(), request.scheduleId(), request.date());
        // As registered: the trigger and the run-checker render its templates at call time, so credentials are
        // resolved only inside them and never enter the execution history.
        TriggerConfig trigger = pipeline.trigger();
        Optional<RunState> orphan = orphanedRun(request, trigger);
        String runId;
        String runCreatedAt;
        if (orphan.isPresent()) {
            runId = orphan.get().runId();
            adopt(request, orphan.get());
            // The trigger reads an adopted run: it is past PENDING, so there is nothing to claim blind.
            runCreatedAt = "";
        } else {
            runId = runIdFor(request, body);
            runCreatedAt = InterlockJson.timestamp(createRun(request, runId, trigger));
        }
        boolean callback = JobStateRule.forTriggerType(trigger.type()).isPresent();
        // A callback wait has no heartbeat: a lost job-state event is the watchdog's callback check's to find, so
        // the execution's transitions do not grow with the job. It ends at the job's maximum duration and a poll
        // interval, when the fallback poll asks the run-checker, which cancels a job past its maximum.
        int callbackTimeout = tuning.maxJobDurationSeconds() + tuning.pollIntervalSeconds();
        return Outcome.proceed(new Resolved(
                runId,
                traits,
                trigger,
                trigger.type().wireName(),
                headersOf(trigger),
                tuning.evaluationIntervalSeconds(),
                tuning.pollIntervalSeconds(),
                tuning.pollLimit(),
                tuning.maxJobDurationSeconds(),
                callback,
                callbackTimeout,
                // When the machine looks next if the job still runs: a callback wait's timeout, else a poll interval.
                callback ? callbackTimeout : tuning.pollIntervalSeconds(),
                new Monitoring(
                        tuning.monitoringEnabled(),
                        tuning.monitoringIntervalSeconds(),
                        tuning.monitoringDurationSeconds()),
                Retry.of(pipeline.retry()),
                pipeline.dryRun(),
                runCreatedAt,
                completionDeadline,
                // Whether logCompleted evaluates post-run checks: a pipeline without any is spared the reads.
                !pipeline.postRun().isEmpty()));
    }

    @Override
    public Unresolved errorPayload() {
        return new Unresolved();
    }

    /** The header templates a poll needs, unrendered (credentials never enter the execution history). */
    static Map<String, String> headersOf(TriggerConfig trigger) {
        return switch (trigger) {
            case HttpTrigger http -> http.headers();
            case AirflowTrigger airflow -> airflow.headers();
            case DatabricksTrigger databricks -> databricks.headers();
            case GlueTrigger ignored -> Map.of();
            case EmrTrigger ignored -> Map.of();
            case EmrServerlessTrigger ignored -> Map.of();
            case StepFunctionTrigger ignored -> Map.of();
            case LambdaTrigger ignored -> Map.of();
        };
    }

    /**
     * A new run id per attempt, but the same one when Step Functions repeats the call for the same attempt (a retry
     * after a timeout), so a repeat finds its run instead of orphaning a PENDING one the watchdog would call stuck.
     */
    private String runIdFor(ActionRequest request, Request body) {
        if (request.executionName() == null) {
            return UUID.randomUUID().toString();
        }
        // checkRunLog admitted this attempt under the lock held since, so the run log has not moved; without it
        // (an older machine definition) the run log tells.
        int attempt = body.attemptNumber() != null && body.attemptNumber() > 0
                ? body.attemptNumber()
                : collaborators
                                .provider()
                                .runLogs()
                                .get(new RunLogKey(request.pipelineId(), request.date(), request.scheduleId()))
                                .map(AttemptLedger::attemptsUsed)
                                .orElse(0)
                        + 1;
        String seed = request.pipelineId() + "#" + request.date() + "#" + request.scheduleId() + "#"
                + request.executionName() + "#" + attempt;
        return UUID.nameUUIDFromBytes(seed.getBytes(StandardCharsets.UTF_8)).toString();
    }

    /**
     * The day's job another execution started, which this execution follows instead of starting a second one: the one
     * rule {@link DayJob} decides, over the runs created within the last two execution timeouts (older ones were
     * reported STUCK_RUN) — a job still running, or one that ended without the run log recording it (its end is then
     * recorded by following it: the trigger answers from the run's state). Only the lock holder gets here, so no live
     * execution is following that run.
     */
    private Optional<RunState> orphanedRun(ActionRequest request, TriggerConfig trigger) {
        Instant now = collaborators.now();
        long lookBack = 2L * collaborators.settings().executionTimeoutSeconds();
        List<RunState> recent = collaborators
                .provider()
                .runs()
                .listCreated(request.pipelineId(), now.minusSeconds(lookBack), now.plusSeconds(1));
        DayJob.Verdict verdict = DayJob.of(
                recent,
                request.scheduleId(),
                request.date(),
                request.executionName(),
                trigger.type(),
                () -> collaborators
                        .provider()
                        .runLogs()
                        .get(new RunLogKey(request.pipelineId(), request.date(), request.scheduleId())));
        return verdict instanceof DayJob.Follow follow ? Optional.of(follow.run()) : Optional.empty();
    }

    /** Tells that this execution follows {@code orphan}'s job rather than starting its own. */
    private void adopt(ActionRequest request, RunState orphan) {
        // The watchdog's check that the run ends moves with its new follower.
        collaborators
                .provider()
                .watchdog()
                .expectRunSettled(
                        request.pipelineId(),
                        orphan.runId(),
                        collaborators.now().plusSeconds(collaborators.settings().executionTimeoutSeconds()));
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("startedBy", orphan.executionName() == null ? "" : orphan.executionName());
        details.put("executionName", request.executionName() == null ? "" : request.executionName());
        details.put("runStatus", orphan.status().wireName());
        collaborators
                .provider()
                .events()
                .append(new Event(
                        EventKind.RUN_ADOPTED,
                        request.pipelineId(),
                        request.scheduleId(),
                        request.date(),
                        orphan.runId(),
                        null,
                        orphan.status().wireName(),
                        "following the job of run " + orphan.runId() + " ("
                                + orphan.status().wireName()
                                + "), started by " + orphan.executionName()
                                + ", which ended without recording its end; no second job is started",
                        details,
                        collaborators.now()));
    }

    /**
     * Creates the run PENDING with the watchdog's check that it ends within the execution timeout and its event, in
     * one write; a repeated call (the same attempt's run id) finds the run and writes nothing. Answers when the stored
     * run was created (the trigger's blind claim rebuilds the run from it).
     */
    private Instant createRun(ActionRequest request, String runId, TriggerConfig trigger) {
        Instant now = collaborators.now();
        RunState run = new RunState(
                runId,
                request.pipelineId(),
                request.scheduleId(),
                request.date(),
                RunStatus.PENDING,
                1,
                trigger.type(),
                request.executionName(),
                Map.of(),
                null,
                null,
                now,
                now);
        Event created = new Event(
                EventKind.RUN_STATE_CHANGED,
                request.pipelineId(),
                request.scheduleId(),
                request.date(),
                runId,
                null,
                RunStatus.PENDING.wireName(),
                "run created",
                null,
                now);
        if (collaborators
                .provider()
                .createRun(
                        run,
                        now.plusSeconds(collaborators.settings().executionTimeoutSeconds()),
                        created,
                        LockOwner.fence(request))) {
            return now;
        }
        // A repeat: the first call's run stands, with its creation time.
        return collaborators
                .provider()
                .runs()
                .get(runId)
                .map(RunState::createdAt)
                .orElse(now);
    }

    /** Records the day FAILED (PERMANENT) once per execution, alerts once, and answers error. */
    private Outcome unresolvable(ActionRequest request, String reason) {
        Instant now = collaborators.now();
        RunLogKey key = new RunLogKey(request.pipelineId(), request.date(), request.scheduleId());
        boolean repeat = collaborators
                .provider()
                .runLogs()
                .get(key)
                .filter(log -> alreadyRecorded(log, request, reason))
                .isPresent();
        if (repeat) {
            // Step Functions repeated the call: the failure is recorded; only a lost alert may still need sending.
            alert(request, reason);
            return Outcome.error(reason, new Unresolved());
        }
        collaborators
                .provider()
                .recordRunLog(
                        key,
                        current -> current.isPresent() && alreadyRecorded(current.get(), request, reason)
                                ? current.get()
                                // No run was created, so the failure is told apart from a repeat by execution and
                                // reason (above).
                                : AttemptLedger.afterFailure(
                                        current,
                                        request.pipelineId(),
                                        request.date(),
                                        request.scheduleId(),
                                        null,
                                        request.executionName(),
                                        reason,
                                        FailureCategory.PERMANENT,
                                        now),
                        List.of(),
                        LockOwner.fence(request));
        collaborators.record(
                request,
                EventKind.RUN_STATE_CHANGED,
                RunLogStatus.FAILED.wireName(),
                reason,
                Map.of("failureCategory", FailureCategory.PERMANENT.wireName(), "phase", "resolve"));
        alert(request, reason);
        return Outcome.error(reason, new Unresolved());
    }

    private void alert(ActionRequest request, String reason) {
        collaborators
                .alerts()
                .raise(
                        AlertKind.RUN_FAILED,
                        AlertLevel.ERROR,
                        request.pipelineId(),
                        request.scheduleId(),
                        request.date(),
                        "Pipeline " + request.pipelineId() + " cannot run: " + reason,
                        Map.of("phase", "resolve", "failureCategory", FailureCategory.PERMANENT.wireName()),
                        request.logContext());
    }

    private static boolean alreadyRecorded(RunLog log, ActionRequest request, String reason) {
        return log.status() == RunLogStatus.FAILED
                && log.failureCategory() == FailureCategory.PERMANENT
                && reason.equals(log.failureMessage())
                && request.executionName() != null
                && request.executionName().equals(log.executionName());
    }
}
