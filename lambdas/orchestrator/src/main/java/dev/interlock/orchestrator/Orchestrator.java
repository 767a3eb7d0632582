package dev.interlock.orchestrator;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.jobs.RunCheck;
import dev.interlock.jobs.RunCheckRequest;
import dev.interlock.jobs.RunChecker;
import dev.interlock.log.LogContext;
import dev.interlock.log.StructuredLog;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.schedule.ScheduleWindow;
import dev.interlock.store.LockLostException;
import dev.interlock.store.Provider;
import dev.interlock.wiring.alert.AlertPublisher;
import dev.interlock.wiring.alert.DeduplicatedAlerts;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The multi-action dispatcher (statemachine/CONTRACT.md §4): decodes the envelope, runs the one action it names and encodes the answer.
 * Bad requests and logical failures are {@code error} results; only infrastructure faults are thrown.
 */
public final class Orchestrator {

    /** Request envelope as read (keys case-insensitive, unknown keys ignored). */
    record Envelope(
            String action,
            String pipelineId,
            String scheduleId,
            String date,
            String runId,
            String executionName,
            JsonNode payload) {}

    private final Collaborators collaborators;
    private final GateOutcomes gates;
    private final Map<OrchestratorAction, Action> actions = new EnumMap<>(OrchestratorAction.class);
    private final RerunProgress reruns;

    public Orchestrator(
            Provider provider, Clock clock, AlertPublisher alerts, OrchestratorSettings settings, StructuredLog log) {
        this(provider, clock, alerts, settings, log, TaskCallbacks.unavailable());
    }

    public Orchestrator(
            Provider provider,
            Clock clock,
            AlertPublisher alerts,
            OrchestratorSettings settings,
            StructuredLog log,
            TaskCallbacks callbacks) {
        this(provider, clock, alerts, settings, log, callbacks, Orchestrator::noJobChecks);
    }

    public Orchestrator(
            Provider provider,
            Clock clock,
            AlertPublisher alerts,
            OrchestratorSettings settings,
            StructuredLog log,
            TaskCallbacks callbacks,
            RunChecker jobChecks) {
        this(provider, clock, alerts, settings, log, callbacks, jobChecks, PostRunEvaluation.UNAVAILABLE);
    }

    /** With the evaluators that judge a pipeline's post-run checks ({@link PostRunEvaluation}). */
    public Orchestrator(
            Provider provider,
            Clock clock,
            AlertPublisher alerts,
            OrchestratorSettings settings,
            StructuredLog log,
            TaskCallbacks callbacks,
            RunChecker jobChecks,
            PostRunEvaluation postRun) {
        this.collaborators = new Collaborators(
                provider,
                clock,
                new DeduplicatedAlerts(provider.alerts(), alerts, clock, log),
                settings,
                log,
                callbacks,
                jobChecks,
                postRun);
        this.gates = new GateOutcomes(collaborators);
        for (OrchestratorAction name : OrchestratorAction.values()) {
            actions.put(name, create(name, collaborators));
        }
        this.reruns = new RerunProgress(collaborators);
    }

    /** For dispatchers built without job clients (unit tests of other actions): any job check is a fault. */
    private static RunCheck noJobChecks(RunCheckRequest request) {
        throw new IllegalStateException(
                "no job clients to check a " + request.triggerType().wireName() + " job with");
    }

    private static Action create(OrchestratorAction name, Collaborators c) {
        return switch (name) {
            case CHECK_EXCLUSION -> new CheckExclusion(c);
            case ACQUIRE_LOCK -> new AcquireLock(c);
            case CHECK_RUN_LOG -> new CheckRunLog(c);
            case RESOLVE_PIPELINE -> new ResolvePipeline(c);
            case CHECK_VALIDATION_DEADLINE -> new CheckValidationDeadline(c);
            case CHECK_READINESS -> new CheckReadiness(c);
            case LOG_RESULT -> new LogResult(c);
            case CHECK_COMPLETION_SLA -> new CheckCompletionSla(c);
            case NOTIFY_DOWNSTREAM -> new NotifyDownstream(c);
            case CHECK_DRIFT -> new CheckDrift(c);
            case HANDLE_LATE_ARRIVAL -> new HandleLateArrival(c);
            case CHECK_MONITORING_EXPIRED -> new CheckMonitoringExpired(c);
            case RELEASE_LOCK -> new ReleaseLock(c);
            case PLAN_RETRY -> new PlanRetry(c);
            case ALERT_EXECUTION_ERROR -> new AlertExecutionError(c);
            case WATCHDOG -> new Watchdog(c);
            case AWAIT_JOB_COMPLETION -> new AwaitJobCompletion(c);
            case JOB_STATE_CHANGE -> new JobStateChange(c);
            case EXECUTION_ENDED -> new ExecutionEnded(c);
        };
    }

    /** Answers one request given as a JSON tree. */
    public OrchestratorResponse handle(JsonNode json) {
        Envelope envelope;
        try {
            if (json == null || !json.isObject()) {
                throw new IllegalArgumentException("the request must be a JSON object");
            }
            envelope = InterlockJson.convert(json, Envelope.class);
        } catch (IllegalArgumentException e) {
            collaborators.log().error(LogContext.NONE, "unreadable orchestrator request", Map.of(), e);
            return respond("", Outcome.error("invalid request: " + e.getMessage(), Map.of()));
        }
        String actionText = envelope.action() == null ? "" : envelope.action();
        Optional<OrchestratorAction> name = OrchestratorAction.find(actionText);
        if (name.isEmpty()) {
            LogContext context = new LogContext(
                    envelope.pipelineId(),
                    envelope.scheduleId(),
                    envelope.date(),
                    envelope.runId(),
                    envelope.executionName());
            collaborators.log().warn(context, "unknown action", Map.of("action", actionText));
            return respond(actionText, Outcome.error("unknown action: " + actionText, Map.of()));
        }
        Action action = actions.get(name.get());
        ActionRequest request;
        try {
            request = decode(name.get(), envelope);
        } catch (IllegalArgumentException e) {
            LogContext context = new LogContext(
                    envelope.pipelineId(),
                    envelope.scheduleId(),
                    envelope.date(),
                    envelope.runId(),
                    envelope.executionName());
            collaborators.log().error(context, "invalid " + actionText + " request", Map.of(), e);
            return respond(name.get().wireName(), Outcome.error(e.getMessage(), action.errorPayload()));
        }
        Outcome outcome;
        try {
            outcome = action.run(request);
        } catch (LockLostException e) {
            // Fenced out: nothing was written; the event says why the execution stops (the machine's catch fails it).
            collaborators.provider().events().append(e.event(request.runId(), collaborators.now()));
            collaborators
                    .log()
                    .warn(
                            request.logContext(),
                            e.getMessage(),
                            Map.of("action", name.get().wireName()));
            throw e;
        } catch (IllegalArgumentException e) {
            // Bad input the action could not foresee (an id that cannot be part of a key, an invalid stored value):
            // a logical failure of this request, answered with the action's safe payload.
            collaborators.log().error(request.logContext(), name.get().wireName() + " rejected its input", Map.of(), e);
            outcome = Outcome.error(e.getMessage(), action.errorPayload());
        }
        // After the action, so a rerun is never reported further than its execution got.
        try {
            reruns.after(request, outcome);
        } catch (IllegalArgumentException e) {
            // Ids that cannot be part of a key name no rerun; the action's own answer stands.
            collaborators
                    .log()
                    .warn(request.logContext(), "no rerun looked up for this request: " + e.getMessage(), Map.of());
        }
        gates.after(name.get(), request, outcome);
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("action", name.get().wireName());
        fields.put("result", outcome.result().wireName());
        if (!outcome.reason().isEmpty()) {
            fields.put("reason", outcome.reason());
        }
        if (outcome.result() == Result.ERROR) {
            collaborators.log().warn(request.logContext(), "action answered error", fields);
        } else {
            collaborators.log().info(request.logContext(), "action answered", fields);
        }
        return respond(name.get().wireName(), outcome);
    }

    /**
     * What a request without a date means: today in the schedule's zone (the pipeline's own date); UTC for a request
     * about no pipeline (the watchdog) or one not registered (its action answers that).
     */
    private LocalDate today(String pipelineId, String scheduleId) {
        Instant now = collaborators.now();
        if (pipelineId == null) {
            return LocalDate.ofInstant(now, ZoneOffset.UTC);
        }
        try {
            return collaborators
                    .provider()
                    .pipelines()
                    .get(pipelineId)
                    .map(config -> ScheduleWindow.currentDate(config, scheduleId, now))
                    .orElse(LocalDate.ofInstant(now, ZoneOffset.UTC));
        } catch (IllegalArgumentException e) {
            return LocalDate.ofInstant(now, ZoneOffset.UTC); // an unreadable zone: the action reports the config
        }
    }

    /** The answer to a request that is not JSON at all. */
    public OrchestratorResponse unreadable(Exception cause) {
        collaborators.log().error(LogContext.NONE, "unreadable orchestrator request", Map.of(), cause);
        return respond("", Outcome.error("invalid request: not JSON (" + cause.getMessage() + ")", Map.of()));
    }

    private ActionRequest decode(OrchestratorAction name, Envelope envelope) {
        String pipelineId = trimmed(envelope.pipelineId());
        String scheduleId = trimmed(envelope.scheduleId());
        if (name.needsPipeline() && pipelineId == null) {
            throw new IllegalArgumentException("pipelineId is required for " + name.wireName());
        }
        if (pipelineId != null && scheduleId == null) {
            scheduleId = "daily";
        }
        LocalDate date;
        if (envelope.date() == null || envelope.date().isBlank()) {
            date = today(pipelineId, scheduleId);
        } else {
            try {
                date = LocalDate.parse(envelope.date().trim());
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("date must be YYYY-MM-DD, got '" + envelope.date() + "'", e);
            }
        }
        return new ActionRequest(
                name, pipelineId, scheduleId, date, envelope.runId(), envelope.executionName(), envelope.payload());
    }

    private static OrchestratorResponse respond(String action, Outcome outcome) {
        return new OrchestratorResponse(
                action, outcome.result(), outcome.reason(), InterlockJson.tree(outcome.payload()));
    }

    private static String trimmed(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}
