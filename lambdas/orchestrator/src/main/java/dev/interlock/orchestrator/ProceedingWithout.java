package dev.interlock.orchestrator;

import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.force.ForceReady;
import dev.interlock.model.force.Forced;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.pipeline.ReadinessRule;
import dev.interlock.model.run.RunState;
import dev.interlock.model.schedule.ReadableTime;
import dev.interlock.model.trait.ReadinessDecision;
import dev.interlock.store.RunTransition;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * A start of {@link CheckReadiness} that goes on without some traits: past the rule's {@code proceedAt} with its
 * essential traits in ({@code PROCEEDED_DEGRADED}), or because an operator forced the day ready
 * ({@code PROCEEDED_FORCED}). Each is recorded on the run with its event (for the run log to copy) and alerted.
 */
final class ProceedingWithout {

    private final Collaborators collaborators;

    ProceedingWithout(Collaborators collaborators) {
        this.collaborators = collaborators;
    }

    /** The operator's force of the round's day, while it lasts (one GetItem, only for a round that is not ready). */
    Optional<ForceReady> force(ActionRequest request) {
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

    static Map<String, Object> forcedDetails(Forced forced, List<String> without) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("forcedBy", forced.by());
        details.put("reason", forced.reason());
        details.put("forcedAt", InterlockJson.timestamp(forced.at()));
        details.put("proceededWithout", without);
        return details;
    }

    /** Records on the run that its day was forced ready and what it goes without ({@code PROCEEDED_FORCED}). */
    void recordForced(ActionRequest request, Forced forced, List<String> without) {
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

    void alertForced(ActionRequest request, Forced forced, List<String> without) {
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

    /** How many times the run's record of a degraded start is retried when its version moved underneath. */
    private static final int TRANSITION_ATTEMPTS = 3;

    /** Records on the run that it goes on without {@code decision}'s traits ({@code PROCEEDED_DEGRADED}). */
    void recordDegraded(ActionRequest request, ReadinessRule rule, ReadinessDecision decision, ZoneId zone) {
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

    void alertDegraded(ActionRequest request, ReadinessRule rule, ReadinessDecision decision, ZoneId zone) {
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
}
