package dev.interlock.orchestrator;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.force.ForceReady;
import dev.interlock.model.force.Forced;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.pipeline.ReadinessRule;
import dev.interlock.model.pipeline.ReadinessRuleType;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.Spacing;
import dev.interlock.model.schedule.ReadableTime;
import dev.interlock.model.schedule.ScheduleWindow;
import dev.interlock.model.schedule.TimeSpan;
import dev.interlock.model.trait.QuietPeriod;
import dev.interlock.model.trait.Readiness;
import dev.interlock.model.trait.ReadinessDecision;
import dev.interlock.model.trait.TraitVerdict;
import dev.interlock.store.RunLogKey;
import dev.interlock.store.RunTransition;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * {@code checkReadiness}: ready iff the pipeline's readiness rule holds ({@link Readiness}: every required trait passed
 * and, for any/at-least, enough of the rule's pool). A required ERROR is not ready and
 * alerts TRAIT_ERROR (once per day and schedule). The round's trait results and events are recorded here, in one
 * request ({@link EvaluationRound}). Each round also checks the evaluation SLA (SLA_EVALUATION_BREACHED,
 * informational) against the one pipeline read, which is the last guard before the trigger: a pipeline deleted since
 * {@code resolvePipeline} is an error, and the machine treats an error as not ready. A ready {@code dryRun} pipeline
 * records what would have happened ({@link DryRunRecords}) and its run ends CANCELLED: the machine then stops without
 * triggering. Past the rule's {@code proceedAt}, a round whose {@code essential} traits passed proceeds without the
 * others ({@link Readiness#decide}): the run records what it goes without (copied into the run log when it ends), with
 * a {@code PROCEEDED_DEGRADED} event, and a {@code PROCEEDED_DEGRADED} alert names the missing traits. A round that is
 * not ready proceeds when an operator forced its day ready ({@link ForceReady}, read by key for that day only): the run
 * records who forced it and the traits that held it back, with a {@code PROCEEDED_FORCED} event and a
 * {@code FORCED_READY} alert.
 */
public final class CheckReadiness implements Action {

    /**
     * Always-present payload.
     *
     * @param proceededWithout the traits a degraded start goes without (empty otherwise): the machine passes it to
     *     {@code logResult} COMPLETED for the run log
     */
    public record Payload(
            boolean ready,
            boolean dryRun,
            List<String> blocking,
            SlaDeadline.Payload evaluationSla,
            List<String> proceededWithout) {
        Payload(boolean ready, boolean dryRun, List<String> blocking, SlaDeadline.Payload evaluationSla) {
            this(ready, dryRun, blocking, evaluationSla, List.of());
        }

        Payload(boolean ready, boolean dryRun, List<String> blocking) {
            this(ready, dryRun, blocking, NO_SLA);
        }
    }

    /**
     * Request payload. {@code reportedRound} is the machine's last {@code checkValidationDeadline} answer and
     * {@code plannedRetry} its last {@code planRetry} answer, each null until that state has run: only after one of
     * them has reported the holder's next round to the lock is there a report for a ready round to withdraw.
     */
    record Request(JsonNode traitResults, JsonNode traits, JsonNode reportedRound, JsonNode plannedRetry) {}

    private static final SlaDeadline.Payload NO_SLA = new SlaDeadline.Payload(false, "");

    private final Collaborators collaborators;

    private final SlaDeadline evaluationSla;
    private final EvaluationRound round;
    private final DryRunRecords dryRunRecords;

    public CheckReadiness(Collaborators collaborators) {
        this.collaborators = collaborators;
        this.round = new EvaluationRound(collaborators);
        this.dryRunRecords = new DryRunRecords(collaborators);
        this.evaluationSla = new SlaDeadline(
                collaborators, ScheduleWindow::evaluationDeadline, AlertKind.SLA_EVALUATION_BREACHED, "Evaluation");
    }

    /** Whether the machine says this execution reported an evaluation round to its lock (see {@link Request}). */
    static boolean roundReported(ActionRequest request) {
        Request body;
        try {
            body = request.payload(Request.class);
        } catch (IllegalArgumentException e) {
            return true; // cannot tell: withdrawing a report that is not there costs a request, keeping one costs work
        }
        return present(body.reportedRound()) || present(body.plannedRetry());
    }

    private static boolean present(JsonNode answer) {
        return answer != null && !answer.isNull() && !answer.isMissingNode();
    }

    @Override
    public Outcome run(ActionRequest request) {
        Optional<PipelineConfig> pipeline = collaborators.pipeline(request);
        if (pipeline.isEmpty()) {
            return Outcome.error(Collaborators.notFound(request), errorPayload());
        }
        boolean dryRun = pipeline.get().dryRun();
        SlaDeadline.Payload sla = checkEvaluationSla(request, pipeline.get());
        List<TraitVerdict> results;
        try {
            results = TraitVerdict.readAll(request.payload(Request.class).traitResults(), "traitResults");
        } catch (IllegalArgumentException e) {
            return Outcome.error(e.getMessage(), new Payload(false, dryRun, List.of(), sla));
        }
        ReadinessRule rule = pipeline.get().readinessRule();
        ReadinessDecision decision = decide(request, pipeline.get(), results);
        ZoneId zone = zoneOf(pipeline.get(), request);
        Readiness readiness = decision.readiness();
        alertErrors(request, readiness);
        // A round that does not proceed by the rule goes on when an operator forced the day ready (this day only).
        Optional<ForceReady> force = decision.proceeds() ? Optional.empty() : force(request);
        // A ready round waits while its data still changes (quietPeriod) and until the last run is minInterval behind.
        Optional<Hold> hold = decision.proceeds()
                ? quietHold(request, pipeline.get(), results).or(() -> spacingHold(request, pipeline.get()))
                : Optional.empty();
        boolean ready = (decision.proceeds() && hold.isEmpty()) || force.isPresent();
        List<String> blocking = readiness.blocking();
        List<String> without = force.isPresent() ? blocking : decision.proceededWithout();
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("blocking", blocking);
        details.put(
                "statuses",
                results.stream()
                        .collect(Collectors.toMap(
                                TraitVerdict::type, TraitVerdict::statusName, (a, b) -> b, LinkedHashMap::new)));
        if (!without.isEmpty() && ready) {
            details.put("proceededWithout", without);
        }
        force.ifPresent(f -> details.put("forced", forcedDetails(f.forced(), without)));
        hold.ifPresent(h -> details.putAll(h.details()));
        if (force.isPresent() && !dryRun) {
            // As a degraded start: the run's record of who forced it comes first, for the run log to copy.
            recordForced(request, force.get().forced(), without);
        } else if (decision.outcome() == ReadinessDecision.Outcome.PROCEED_DEGRADED && ready && !dryRun) {
            // The run's record of what it goes without comes first: the run log copies it whoever records the end.
            recordDegraded(request, rule, decision, zone);
        }
        round.record(
                request,
                results,
                request.payload(Request.class).traits(),
                collaborators.event(
                        request,
                        EventKind.READINESS_CHECKED,
                        ready ? "READY" : "NOT_READY",
                        force.map(f -> forcedMessage(f.forced(), without))
                                .or(() -> hold.map(Hold::message))
                                .orElseGet(() -> readinessMessage(rule, decision, collaborators.now(), zone)),
                        details));
        PublishedMetrics.round(collaborators, request, pipeline.get(), ready);
        if (!ready) {
            return Outcome.skip("not ready", new Payload(false, dryRun, blocking, sla));
        }
        if (force.isPresent()) {
            alertForced(request, force.get().forced(), without);
        } else if (decision.outcome() == ReadinessDecision.Outcome.PROCEED_DEGRADED) {
            alertDegraded(request, rule, decision, zone);
        }
        if (dryRun) {
            dryRunRecords.ready(
                    request,
                    pipeline.get(),
                    sla.breached(),
                    without,
                    force.map(ForceReady::forced).orElse(null));
        }
        return Outcome.proceed(new Payload(true, dryRun, List.of(), sla, without));
    }

    /** The operator's force of the round's day, while it lasts (one GetItem, only for a round that is not ready). */
    private Optional<ForceReady> force(ActionRequest request) {
        return collaborators
                .provider()
                .forces()
                .get(request.pipelineId(), request.date(), request.scheduleId())
                .filter(f -> f.activeAt(collaborators.now()));
    }

    /** The words of a forced start: who forced the day ready, why, and what it goes without. */
    static String forcedMessage(Forced forced, List<String> without) {
        return forced.describe() + (without.isEmpty() ? "" : "; proceeded without " + String.join(", ", without));
    }

    private static Map<String, Object> forcedDetails(Forced forced, List<String> without) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("forcedBy", forced.by());
        details.put("reason", forced.reason());
        details.put("forcedAt", InterlockJson.timestamp(forced.at()));
        details.put("proceededWithout", without);
        return details;
    }

    /** Records on the run that its day was forced ready and what it goes without ({@code PROCEEDED_FORCED}). */
    private void recordForced(ActionRequest request, Forced forced, List<String> without) {
        var event = collaborators.event(
                request,
                EventKind.PROCEEDED_FORCED,
                "PROCEEDED",
                forcedMessage(forced, without),
                forcedDetails(forced, without));
        recordOnRun(
                request,
                event,
                "forced",
                run -> forced.equals(run.forced()),
                run -> run.forcedWithout(forced, without, collaborators.now()));
    }

    private void alertForced(ActionRequest request, Forced forced, List<String> without) {
        collaborators
                .alerts()
                .raise(
                        AlertKind.FORCED_READY,
                        AlertLevel.WARNING,
                        request.pipelineId(),
                        request.scheduleId(),
                        request.date(),
                        "Pipeline " + request.pipelineId() + " " + request.date() + " (" + request.scheduleId() + ") "
                                + forcedMessage(forced, without),
                        forcedDetails(forced, without),
                        request.logContext());
    }

    /** Why a ready round is held back, in the READINESS_CHECKED event's words and details. */
    record Hold(String message, Map<String, Object> details) {}

    /** Held while the latest change the verdicts report is less than {@code quietPeriod} ago. */
    private Optional<Hold> quietHold(ActionRequest request, PipelineConfig pipeline, List<TraitVerdict> results) {
        Duration quiet = span(request, "quietPeriod", pipeline.quietPeriod());
        Optional<Instant> until = QuietPeriod.holdsUntil(results, quiet, collaborators.now());
        Optional<QuietPeriod.Change> change = until.flatMap(u -> QuietPeriod.lastChange(results));
        if (until.isEmpty() || change.isEmpty()) {
            return Optional.empty();
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("quietUntil", InterlockJson.timestamp(until.get()));
        details.put("changedAt", InterlockJson.timestamp(change.get().at()));
        details.put("changedBy", change.get().traitType());
        return Optional.of(new Hold(
                "quiet until " + ReadableTime.of(until.get(), zoneOf(pipeline, request)) + ": "
                        + change.get().traitType()
                        + " changed at " + ReadableTime.of(change.get().at(), zoneOf(pipeline, request))
                        + " (quietPeriod "
                        + pipeline.quietPeriod() + ")",
                details));
    }

    /**
     * Held while the day's previous run (the run log's, when it is not this execution's) started less than
     * {@code minInterval} ago. Reads the run log and that run only when the pipeline sets a spacing.
     */
    private Optional<Hold> spacingHold(ActionRequest request, PipelineConfig pipeline) {
        Duration min = span(request, "minInterval", pipeline.minInterval());
        if (min == null) {
            return Optional.empty();
        }
        Optional<String> previous = collaborators
                .provider()
                .runLogs()
                .get(new RunLogKey(request.pipelineId(), request.date(), request.scheduleId()))
                .map(RunLog::runId)
                .filter(runId -> !runId.equals(request.runId()));
        if (previous.isEmpty()) {
            return Optional.empty();
        }
        Instant started = collaborators
                .provider()
                .runs()
                .get(previous.get())
                .map(RunState::createdAt)
                .orElse(null);
        return Spacing.holdsUntil(started, min, collaborators.now()).map(until -> {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("spacedUntil", InterlockJson.timestamp(until));
            details.put("previousRunId", previous.get());
            details.put("previousStartedAt", InterlockJson.timestamp(started));
            return new Hold(
                    "spaced until " + ReadableTime.of(until, zoneOf(pipeline, request)) + ": the day's previous run "
                            + previous.get() + " started at " + ReadableTime.of(started, zoneOf(pipeline, request))
                            + " (minInterval "
                            + pipeline.minInterval() + ")",
                    details);
        });
    }

    /** The zone the round's words show times in: the schedule's (ReadableTime); the event details keep UTC. */
    private static ZoneId zoneOf(PipelineConfig pipeline, ActionRequest request) {
        return ReadableTime.zoneOf(pipeline, request.scheduleId());
    }

    /** A duration field of the pipeline; null when unset (or one registration would now refuse, which is logged). */
    private Duration span(ActionRequest request, String field, String text) {
        if (text == null) {
            return null;
        }
        try {
            return TimeSpan.parse(text);
        } catch (IllegalArgumentException e) {
            collaborators
                    .log()
                    .warn(request.logContext(), field + " not applied: " + e.getMessage(), Map.of(field, text));
            return null;
        }
    }

    /** The round by the pipeline's rule and its deadline fallback, in the schedule's window on the execution date. */
    private ReadinessDecision decide(ActionRequest request, PipelineConfig pipeline, List<TraitVerdict> results) {
        ReadinessRule rule = pipeline.readinessRule();
        Instant now = collaborators.now();
        if (!rule.hasFallback()) {
            return Readiness.decide(results, rule, null, now);
        }
        try {
            return Readiness.decide(
                    results, rule, ScheduleWindow.of(pipeline, request.scheduleId(), request.date()), now);
        } catch (IllegalArgumentException | DateTimeException e) {
            // Registration refuses such a config; one stored before must still be judged, by the rule alone.
            collaborators
                    .log()
                    .warn(
                            request.logContext(),
                            "readinessRule.proceedAt not applied: " + e.getMessage(),
                            Map.of("proceedAt", rule.proceedAt()));
            return Readiness.decide(results, new ReadinessRule(rule.type(), rule.traits(), rule.count()), null, now);
        }
    }

    /** How many times the run's record of a degraded start is retried when its version moved underneath. */
    private static final int TRANSITION_ATTEMPTS = 3;

    /** Records on the run that it goes on without {@code decision}'s traits ({@code PROCEEDED_DEGRADED}). */
    private void recordDegraded(ActionRequest request, ReadinessRule rule, ReadinessDecision decision, ZoneId zone) {
        var event = collaborators.event(
                request,
                EventKind.PROCEEDED_DEGRADED,
                "PROCEEDED",
                degradedMessage(rule, decision, zone),
                degradedDetails(rule, decision));
        recordOnRun(
                request,
                event,
                "degraded",
                run -> run.proceededWithout().equals(decision.proceededWithout()),
                run -> run.proceedingWithout(decision.proceededWithout(), collaborators.now()));
    }

    /**
     * Records how the run starts ({@code change}) with {@code event} in one transition fenced by the day's lock, unless
     * {@code recorded} says an earlier call did; without a run (none created, or gone) the event is still written.
     */
    private void recordOnRun(
            ActionRequest request,
            Event event,
            String how,
            Predicate<RunState> recorded,
            UnaryOperator<RunState> change) {
        for (int attempt = 0; attempt < TRANSITION_ATTEMPTS; attempt++) {
            Optional<RunState> run = request.runId() == null
                    ? Optional.empty()
                    : collaborators.provider().runs().get(request.runId());
            if (run.isEmpty()) {
                collaborators
                        .log()
                        .warn(
                                request.logContext(),
                                "run not found; recording the " + how + " start without it",
                                Map.of());
                collaborators.provider().events().append(event);
                return;
            }
            if (recorded.test(run.get())) {
                return; // recorded by an earlier call for this round
            }
            if (collaborators
                    .provider()
                    .recordTransition(
                            RunTransition.of(run.get().version(), change.apply(run.get()), event),
                            LockOwner.fence(request))
                    .applied()) {
                return;
            }
        }
        throw new IllegalStateException("run " + request.runId() + " kept changing while its " + how + " start was "
                + "recorded (" + TRANSITION_ATTEMPTS + " attempts)");
    }

    private void alertDegraded(ActionRequest request, ReadinessRule rule, ReadinessDecision decision, ZoneId zone) {
        collaborators
                .alerts()
                .raise(
                        AlertKind.PROCEEDED_DEGRADED,
                        AlertLevel.WARNING,
                        request.pipelineId(),
                        request.scheduleId(),
                        request.date(),
                        "Pipeline " + request.pipelineId() + " " + degradedMessage(rule, decision, zone),
                        degradedDetails(rule, decision),
                        request.logContext());
    }

    /** What a degraded start went without and why it was allowed, in the event's and the alert's words. */
    static String degradedMessage(ReadinessRule rule, ReadinessDecision decision, ZoneId zone) {
        String without = "proceeded without " + String.join(", ", decision.proceededWithout());
        if (decision.proceedAt() == null) {
            // Only a rollup's minCount degrades a rule without a fallback.
            return without + ": the rollup's minCount of periods was in";
        }
        return without + ": proceedAt " + ReadableTime.of(decision.proceedAt(), zone) + " passed and the essential "
                + String.join(", ", rule.essential()) + " passed";
    }

    private static Map<String, Object> degradedDetails(ReadinessRule rule, ReadinessDecision decision) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("proceededWithout", decision.proceededWithout());
        details.put("essential", rule.essential());
        if (decision.proceedAt() != null) {
            details.put("proceedAt", InterlockJson.timestamp(decision.proceedAt()));
        }
        return details;
    }

    /** The READINESS_CHECKED event's words: what the rule asked for, and what held the round back. */
    static String readinessMessage(ReadinessRule rule, boolean ready, List<String> blocking) {
        String asked = rule.type() == ReadinessRuleType.ALL_REQUIRED_PASS
                ? "every required trait passed"
                : "every required trait and " + rule.describe() + " passed";
        return ready ? asked : "blocking: " + String.join(", ", blocking) + " (needs " + rule.describe() + ")";
    }

    /**
     * The READINESS_CHECKED event's words with the rule's deadline fallback: a degraded start says what it went
     * without; a round held back says when the fallback opens, or, once it has, which essential traits keep it waiting.
     */
    static String readinessMessage(ReadinessRule rule, ReadinessDecision decision, Instant now, ZoneId zone) {
        if (decision.outcome() == ReadinessDecision.Outcome.PROCEED_DEGRADED) {
            return degradedMessage(rule, decision, zone);
        }
        String message =
                readinessMessage(rule, decision.proceeds(), decision.readiness().blocking());
        if (decision.outcome() == ReadinessDecision.Outcome.READY || decision.proceedAt() == null) {
            return message;
        }
        String essential = String.join(", ", rule.essential());
        return decision.fallbackOpen(now)
                ? message + "; past proceedAt " + ReadableTime.of(decision.proceedAt(), zone) + ", waiting for the "
                        + "essential " + String.join(", ", decision.essentialMissing())
                : message + "; from proceedAt " + ReadableTime.of(decision.proceedAt(), zone) + " the essential "
                        + essential + " will do";
    }

    /** Informational: an invalid deadline is logged, never a reason to stop a round. */
    private SlaDeadline.Payload checkEvaluationSla(ActionRequest request, PipelineConfig pipeline) {
        Outcome outcome = evaluationSla.check(request, pipeline);
        if (outcome.result() == Result.ERROR) {
            collaborators.log().warn(request.logContext(), "evaluation SLA not checked: " + outcome.reason(), Map.of());
        }
        return outcome.payload() instanceof SlaDeadline.Payload payload ? payload : NO_SLA;
    }

    @Override
    public Payload errorPayload() {
        return new Payload(false, false, List.of());
    }

    private void alertErrors(ActionRequest request, Readiness readiness) {
        List<TraitVerdict> requiredErrors = readiness.requiredErrors();
        for (TraitVerdict optional : readiness.optionalErrors()) {
            collaborators
                    .log()
                    .warn(
                            request.logContext(),
                            "optional trait evaluation failed",
                            Map.of("traitType", optional.type(), "reason", String.valueOf(optional.reason())));
        }
        if (requiredErrors.isEmpty()) {
            return;
        }
        Map<String, Object> details = new LinkedHashMap<>();
        for (TraitVerdict error : requiredErrors) {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("reason", error.reason() == null ? "" : error.reason());
            one.put(
                    "failureCategory",
                    error.failureCategory() == null
                            ? ""
                            : error.failureCategory().wireName());
            details.put(error.type(), one);
        }
        String message = "Trait evaluation failed for " + request.pipelineId() + ": "
                + requiredErrors.stream().map(TraitVerdict::type).collect(Collectors.joining(", "));
        collaborators
                .alerts()
                .raise(
                        AlertKind.TRAIT_ERROR,
                        AlertLevel.ERROR,
                        request.pipelineId(),
                        request.scheduleId(),
                        request.date(),
                        message,
                        Map.of("traits", details),
                        request.logContext());
    }
}
