package dev.interlock.orchestrator;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.force.ForceReady;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.pipeline.ReadinessRule;
import dev.interlock.model.pipeline.ReadinessRuleType;
import dev.interlock.model.schedule.ReadableTime;
import dev.interlock.model.schedule.ScheduleWindow;
import dev.interlock.model.trait.Readiness;
import dev.interlock.model.trait.ReadinessDecision;
import dev.interlock.model.trait.TraitVerdict;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
    private final ReadinessHolds holds;
    private final ProceedingWithout proceeding;

    public CheckReadiness(Collaborators collaborators) {
        this.collaborators = collaborators;
        this.round = new EvaluationRound(collaborators);
        this.dryRunRecords = new DryRunRecords(collaborators);
        this.holds = new ReadinessHolds(collaborators);
        this.proceeding = new ProceedingWithout(collaborators);
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
        Optional<ForceReady> force = decision.proceeds() ? Optional.empty() : proceeding.force(request);
        // A ready round waits while the data its traits read is still changing (quietPeriod), and until the day's
        // previous run is minInterval behind it.
        Optional<ReadinessHolds.Hold> hold =
                decision.proceeds() ? holds.of(request, pipeline.get(), results) : Optional.empty();
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
        force.ifPresent(f -> details.put("forced", ProceedingWithout.forcedDetails(f.forced(), without)));
        hold.ifPresent(h -> details.putAll(h.details()));
        if (force.isPresent() && !dryRun) {
            // As a degraded start: the run's record of who forced it comes first, for the run log to copy.
            proceeding.recordForced(request, force.get().forced(), without);
        } else if (decision.outcome() == ReadinessDecision.Outcome.PROCEED_DEGRADED && ready && !dryRun) {
            // The run's record of what it goes without comes first: the run log copies it whoever records the end.
            proceeding.recordDegraded(request, rule, decision, zone);
        }
        round.record(
                request,
                results,
                request.payload(Request.class).traits(),
                collaborators.event(
                        request,
                        EventKind.READINESS_CHECKED,
                        ready ? "READY" : "NOT_READY",
                        force.map(f -> ProceedingWithout.forcedMessage(f.forced(), without))
                                .or(() -> hold.map(ReadinessHolds.Hold::message))
                                .orElseGet(() -> readinessMessage(rule, decision, collaborators.now(), zone)),
                        details));
        PublishedMetrics.round(collaborators, request, pipeline.get(), ready);
        if (!ready) {
            return Outcome.skip("not ready", new Payload(false, dryRun, blocking, sla));
        }
        if (force.isPresent()) {
            proceeding.alertForced(request, force.get().forced(), without);
        } else if (decision.outcome() == ReadinessDecision.Outcome.PROCEED_DEGRADED) {
            proceeding.alertDegraded(request, rule, decision, zone);
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

    /** The zone the round's words show times in: the schedule's (ReadableTime); the event details keep UTC. */
    static ZoneId zoneOf(PipelineConfig pipeline, ActionRequest request) {
        return ReadableTime.zoneOf(pipeline, request.scheduleId());
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
            return ProceedingWithout.degradedMessage(rule, decision, zone);
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
