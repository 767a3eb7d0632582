package dev.interlock.orchestrator;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.marker.MarkerSource;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.pipeline.RetryPolicy;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.run.RetryAttempt;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.model.trait.PostRunVerdict;
import dev.interlock.model.workflow.AttemptLedger;
import dev.interlock.store.RunLogChange;
import dev.interlock.store.RunLogKey;
import dev.interlock.store.RunTransition;
import dev.interlock.store.TransitionOutcome;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * {@code logResult}: records how a run ended. The run log of the execution date is updated, never overwritten, by the
 * attempt-counting rule ({@link AttemptLedger}): a failed job counts one attempt, a missed validation deadline none
 * (and it leaves a COMPLETED day completed: a rerun that could not become ready does not undo the day), COMPLETED
 * none; the run state moves to the same terminal status (a completion records its day completed on the run,
 * {@code dayCompletedAt}, even when its job system or the trigger had already moved it to COMPLETED) and the events
 * are written with it, all in one transition. Repeating the call for the same run changes nothing and answers the
 * same. Always answers {@code retryable} and {@code retryBackoffSeconds}. A run that went on without some traits past
 * its readiness rule's {@code proceedAt} leaves them in the run log ({@code proceededWithout}): a completion says so in
 * its request (checkReadiness's answer), a failure takes them from the run.
 */
public final class LogResult implements Action {

    /**
     * Always-present payload.
     * @param loggedAt when the run's end was recorded; for COMPLETED the run's completion (monitoring starts there)
     */
    public record Payload(
            String status, int attemptNumber, boolean retryable, long retryBackoffSeconds, String loggedAt) {}

    /** Request payload (the variants of statemachine/CONTRACT.md, logResult). */
    record Request(
            String status,
            String failureCategory,
            String message,
            String phase,
            List<String> blocking,
            Integer pollCount,
            JsonNode triggerMetadata,
            String triggerStatus,
            String trait,
            List<String> proceededWithout,
            Boolean postRunChecks,
            String completionDeadline) {

        /** What the run went on without past its readiness rule's proceedAt (checkReadiness's answer); else empty. */
        List<String> degradedWithout() {
            return proceededWithout == null ? List.of() : proceededWithout;
        }

        /** The required trait whose PERMANENT evaluator error ended the wait (see {@link StoppedWait}); else null. */
        String stoppingTrait() {
            return trait == null || trait.isBlank() ? null : trait;
        }
    }

    /** How many times a run-state swap is retried when its version moved underneath. */
    private static final int TRANSITION_ATTEMPTS = 3;

    private final Collaborators collaborators;
    private final DryRunRecords dryRun;
    private final FailureNotices notices;

    public LogResult(Collaborators collaborators) {
        this.collaborators = collaborators;
        this.dryRun = new DryRunRecords(collaborators);
        this.notices = new FailureNotices(collaborators);
    }

    @Override
    public Outcome run(ActionRequest request) {
        Request body = request.payload(Request.class);
        String status = body.status() == null ? "" : body.status().trim().toUpperCase(Locale.ROOT);
        if (!status.equals(RunLogStatus.COMPLETED.wireName()) && !status.equals(RunLogStatus.FAILED.wireName())) {
            return Outcome.error(
                    "payload.status must be COMPLETED or FAILED, got '" + body.status() + "'", errorPayload());
        }
        if (request.runId() == null) {
            return Outcome.error("runId is required to log a result", errorPayload());
        }
        if (status.equals(RunLogStatus.COMPLETED.wireName())) {
            // Only a pipeline with post-run checks (resolvePipeline said so) reads anything more than a completion. An
            // execution of a definition from before post-run checks sends no postRunChecks: its pipeline's stored
            // config says whether there are any (runs record no config version: the current one).
            Optional<Outcome> unverified =
                    Boolean.FALSE.equals(body.postRunChecks()) ? Optional.empty() : verify(request);
            return unverified.isPresent() ? unverified.get() : completed(request, body);
        }
        return failed(request, body, collaborators.pipeline(request));
    }

    /**
     * The pipeline's post-run checks before a completion is recorded (docs/post-run-checks.md): a required one that
     * does not pass records the run FAILED {@code VERIFICATION} instead — alerted, not cascaded, retried (by a
     * successor execution) only if {@code retry.retryableFailures} lists VERIFICATION. Evaluated once per run: a
     * repeated call finds the run's end in the run log and answers it again.
     */
    private Optional<Outcome> verify(ActionRequest request) {
        Optional<RunLog> current = collaborators.provider().runLogs().get(key(request));
        if (current.flatMap(l -> AttemptLedger.entryOf(l, request.runId(), RunLogStatus.COMPLETED))
                .isPresent()) {
            return Optional.empty();
        }
        Optional<PipelineConfig> pipeline = collaborators.pipeline(request);
        if (pipeline.isEmpty() || !Collaborators.checksAfterRun(pipeline.get())) {
            return Optional.empty();
        }
        boolean recorded = current.flatMap(l -> AttemptLedger.entryOf(l, request.runId(), RunLogStatus.FAILED))
                .isPresent();
        PostRunVerdict verdict = recorded ? null : collaborators.judgePostRun(request, pipeline.get());
        if (verdict != null && verdict.passed()) {
            return Optional.empty();
        }
        String message = verdict == null ? "post-run check failed" : verdict.message();
        Request failure = new Request(
                RunLogStatus.FAILED.wireName(),
                FailureCategory.VERIFICATION.wireName(),
                message,
                "postRun",
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null);
        Outcome outcome = failed(request, failure, pipeline);
        if (outcome.payload() instanceof Payload p && p.retryable()) {
            // The machine goes on to its exit after logCompleted: a successor execution waits out the backoff.
            boolean replay = request.payload().path("replay").asBoolean(false);
            new Successors(collaborators).handOver(request, MarkerSource.RETRY, request.executionName(), replay);
        }
        return Optional.of(outcome);
    }

    @Override
    public Payload errorPayload() {
        return new Payload("", 0, false, 0, InterlockJson.timestamp(collaborators.now()));
    }

    private Outcome completed(ActionRequest request, Request body) {
        Instant started = collaborators.now();
        RunState[] ran = new RunState[1]; // the run as it was before it completed: when its job started
        List<Event> events = List.of(collaborators.event(
                request, EventKind.RUN_STATE_CHANGED, RunStatus.COMPLETED.wireName(), "run completed", Map.of()));
        // The run (COMPLETED by its job system or the trigger, or still RUNNING) records its day completed with the
        // run log, in one transition (RunState.dayCompletedAt: the run's end in OpenLineage). A repeated call writes
        // nothing, nor the event.
        RunLog stored = write(
                request,
                RunStatus.COMPLETED,
                body,
                run -> RunLogChanges.completedChange(
                        request,
                        body.degradedWithout(),
                        (ran[0] = run) == null ? null : run.forced(),
                        collaborators.now()),
                events);
        RetryAttempt entry = AttemptLedger.entryOf(stored, request.runId(), RunLogStatus.COMPLETED)
                .orElseThrow();
        PublishedMetrics.completed(collaborators, request, entry, started, ran[0]);
        // The day is COMPLETED now (its post-run checks, if any, passed): the completion SLA is judged on this time.
        new CheckCompletionSla(collaborators)
                .judgeCompletion(
                        request,
                        body.completionDeadline(),
                        entry.completedAt(),
                        PublishedMetrics.recordedBy(entry, started));
        return Outcome.proceed(new Payload(
                RunLogStatus.COMPLETED.wireName(),
                entry.attempt(),
                false,
                0,
                InterlockJson.timestamp(entry.completedAt())));
    }

    private Outcome failed(ActionRequest request, Request body, Optional<PipelineConfig> pipeline) {
        FailureCategory category = FailureCategory.fromJson(body.failureCategory());
        String message = body.message() == null || body.message().isBlank() ? "run failed" : body.message();
        if (pipeline.isPresent() && pipeline.get().dryRun()) { // no FAILED run log: a DRY_RUN_WOULD_BE_EXHAUSTED event
            return dryRun.exhausted(request, category, message, body.stoppingTrait(), body.blocking());
        }
        RetryPolicy policy = pipeline.map(PipelineConfig::retry).orElse(RetryPolicy.DEFAULT);
        RunLogKey key = key(request);
        Optional<RunLog> current = collaborators.provider().runLogs().get(key);
        RunLog stored;
        if (current.flatMap(l -> AttemptLedger.entryOf(l, request.runId(), RunLogStatus.FAILED))
                .isPresent()) {
            stored = current.get();
        } else {
            RunLog next = AttemptLedger.afterFailure(
                    current,
                    request.pipelineId(),
                    request.date(),
                    request.scheduleId(),
                    request.runId(),
                    request.executionName(),
                    message,
                    category,
                    body.stoppingTrait(),
                    collaborators.now());
            int attempt = AttemptLedger.entryOf(next, request.runId(), RunLogStatus.FAILED)
                    .orElseThrow()
                    .attempt();
            boolean retryable = pipeline.isPresent() && AttemptLedger.retryableInExecution(policy, category, attempt);
            PublishedMetrics.failed(collaborators, request);
            stored = write(
                    request,
                    RunStatus.FAILED,
                    body,
                    run -> RunLogChanges.failedChange(
                            request,
                            message,
                            category,
                            body.stoppingTrait(),
                            run == null ? List.of() : run.proceededWithout(),
                            run == null ? null : run.forced(),
                            collaborators.now()),
                    notices.failureEvents(
                            request,
                            body,
                            category,
                            message,
                            attempt,
                            retryable,
                            policy,
                            next.status() == RunLogStatus.COMPLETED));
        }
        RetryAttempt entry = AttemptLedger.entryOf(stored, request.runId(), RunLogStatus.FAILED)
                .orElseThrow();
        FailureCategory recorded =
                entry.failureCategory() == null ? FailureCategory.TRANSIENT : entry.failureCategory();
        boolean retryable =
                pipeline.isPresent() && AttemptLedger.retryableInExecution(policy, recorded, entry.attempt());
        long backoff = retryable ? policy.backoff(entry.attempt()).getSeconds() : 0;
        if (stored.status() != RunLogStatus.COMPLETED) {
            // A rerun that could not become ready leaves the day completed: its outcome is the rerun's to report.
            notices.alertFailure(
                    request, body, recorded, message, entry.attempt(), retryable, policy, pipeline.isPresent());
        }
        Payload payload = new Payload(
                RunLogStatus.FAILED.wireName(),
                entry.attempt(),
                retryable,
                backoff,
                InterlockJson.timestamp(entry.completedAt()));
        if (pipeline.isEmpty()) {
            collaborators
                    .log()
                    .warn(
                            request.logContext(),
                            Collaborators.notFound(request) + "; the failure is not retried",
                            Map.of("failureCategory", recorded.wireName()));
        }
        return Outcome.proceed(payload);
    }

    /**
     * Moves the run to {@code target} together with the run-log change and events; when the run cannot move (already
     * there — the trigger marks a failed start itself — or unknown), the run log and events are still written.
     */
    private RunLog write(
            ActionRequest request,
            RunStatus target,
            Request body,
            Function<RunState, RunLogChange> changeOf,
            List<Event> events) {
        RunLogKey key = key(request);
        for (int attempt = 0; attempt < TRANSITION_ATTEMPTS; attempt++) {
            Optional<RunState> run = collaborators.provider().runs().get(request.runId());
            RunLogChange change = changeOf.apply(run.orElse(null));
            if (run.isEmpty() || !moves(run.get(), target, body)) {
                if (run.isEmpty()) {
                    collaborators
                            .log()
                            .warn(
                                    request.logContext(),
                                    "run not found; logging the result without a run state",
                                    Map.of("status", target.wireName()));
                } else if (run.get().status() != target) {
                    collaborators
                            .log()
                            .warn(
                                    request.logContext(),
                                    "run cannot move to " + target.wireName(),
                                    Map.of("runStatus", run.get().status().wireName()));
                }
                return collaborators.provider().recordRunLog(key, change, events, LockOwner.fence(request));
            }
            RunState next = nextRun(run.get(), target, body, request);
            TransitionOutcome outcome = collaborators
                    .provider()
                    .recordTransition(
                            new RunTransition(
                                    run.get().version(), next, new RunTransition.RunLogUpdate(key, change), events),
                            LockOwner.fence(request));
            if (outcome instanceof TransitionOutcome.Applied applied) {
                return applied.runLog();
            }
            collaborators
                    .log()
                    .warn(
                            request.logContext(),
                            "run version moved while logging the result; re-reading",
                            Map.of("expectedVersion", run.get().version()));
        }
        throw new IllegalStateException("run " + request.runId() + " kept changing while its result was logged ("
                + TRANSITION_ATTEMPTS + " attempts)");
    }

    /**
     * Whether recording {@code target} changes {@code run}: a completion records the day completed on a run not yet so
     * (whether its job system already reported it COMPLETED or it is still running); a VERIFICATION failure moves a
     * COMPLETED run back to FAILED; anything else is a lifecycle move.
     */
    private static boolean moves(RunState run, RunStatus target, Request body) {
        if (target == RunStatus.COMPLETED) {
            return run.dayCompletedAt() == null
                    && (run.status() == RunStatus.COMPLETED || run.status().canMoveTo(target));
        }
        boolean unverified = target == RunStatus.FAILED
                && run.status() == RunStatus.COMPLETED
                && FailureCategory.fromJson(body.failureCategory()) == FailureCategory.VERIFICATION;
        return unverified || run.status().canMoveTo(target);
    }

    private RunState nextRun(RunState run, RunStatus target, Request body, ActionRequest request) {
        Instant now = collaborators.now();
        if (target == RunStatus.FAILED && run.status() == RunStatus.COMPLETED) {
            return run.failedVerification(body.message(), now);
        }
        if (target == RunStatus.FAILED) {
            String message = body.message() == null || body.message().isBlank() ? "run failed" : body.message();
            return run.withFailure(message, FailureCategory.fromJson(body.failureCategory()))
                    .moveTo(target, now);
        }
        Map<String, String> metadata = new LinkedHashMap<>();
        if (body.triggerMetadata() != null && body.triggerMetadata().isObject()) {
            body.triggerMetadata()
                    .properties()
                    .forEach(e -> metadata.put(
                            e.getKey(),
                            e.getValue().isTextual()
                                    ? e.getValue().asText()
                                    : e.getValue().toString()));
        }
        return run.withMetadata(metadata).dayCompleted(now);
    }

    private static RunLogKey key(ActionRequest request) {
        return new RunLogKey(request.pipelineId(), request.date(), request.scheduleId());
    }
}
