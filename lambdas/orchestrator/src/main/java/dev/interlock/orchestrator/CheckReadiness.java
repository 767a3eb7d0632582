package dev.interlock.orchestrator;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.pipeline.ReadinessRule;
import dev.interlock.model.pipeline.ReadinessRuleType;
import dev.interlock.model.schedule.ScheduleWindow;
import dev.interlock.model.trait.Readiness;
import dev.interlock.model.trait.TraitVerdict;
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
 * triggering.
 */
public final class CheckReadiness implements Action {

    /** Always-present payload. */
    public record Payload(boolean ready, boolean dryRun, List<String> blocking, SlaDeadline.Payload evaluationSla) {
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
        Readiness readiness = Readiness.of(results, rule);
        alertErrors(request, readiness);
        boolean ready = readiness.ready();
        List<String> blocking = readiness.blocking();
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("blocking", blocking);
        details.put(
                "statuses",
                results.stream()
                        .collect(Collectors.toMap(
                                TraitVerdict::type, TraitVerdict::statusName, (a, b) -> b, LinkedHashMap::new)));
        round.record(
                request,
                results,
                request.payload(Request.class).traits(),
                collaborators.event(
                        request,
                        EventKind.READINESS_CHECKED,
                        ready ? "READY" : "NOT_READY",
                        readinessMessage(rule, ready, blocking),
                        details));
        if (!ready) {
            return Outcome.skip("not ready", new Payload(false, dryRun, blocking, sla));
        }
        if (dryRun) {
            dryRunRecords.ready(request, pipeline.get(), sla.breached());
        }
        return Outcome.proceed(new Payload(true, dryRun, List.of(), sla));
    }

    /** The READINESS_CHECKED event's words: what the rule asked for, and what held the round back. */
    static String readinessMessage(ReadinessRule rule, boolean ready, List<String> blocking) {
        String asked = rule.type() == ReadinessRuleType.ALL_REQUIRED_PASS
                ? "every required trait passed"
                : "every required trait and " + rule.describe() + " passed";
        return ready ? asked : "blocking: " + String.join(", ", blocking) + " (needs " + rule.describe() + ")";
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
