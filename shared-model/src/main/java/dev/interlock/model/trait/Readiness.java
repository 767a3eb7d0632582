package dev.interlock.model.trait;

import dev.interlock.model.pipeline.ReadinessRule;
import dev.interlock.model.schedule.ScheduleWindow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A readiness rule ({@link ReadinessRule}) over one evaluation round: ready when every required trait passed and, for
 * {@code any}/{@code at-least}, enough of the rule's pool passed; optional traits never block. Required ERROR results
 * also block, and are listed apart because they mean a broken evaluator and must alert; optional and pooled ones are
 * listed too, so they can be logged. When the pool falls short, every pooled trait that did not pass is blocking.
 */
public record Readiness(
        boolean ready, List<String> blocking, List<TraitVerdict> requiredErrors, List<TraitVerdict> optionalErrors) {
    public Readiness {
        blocking = List.copyOf(blocking);
        requiredErrors = List.copyOf(requiredErrors);
        optionalErrors = List.copyOf(optionalErrors);
    }

    /** The rule for one trait: it blocks readiness when it is required and did not pass. */
    public static boolean blocks(boolean required, boolean passed) {
        return required && !passed;
    }

    /**
     * The first required trait whose evaluator failed PERMANENT (a refused URL, a 4xx other than 408 and 429, an answer
     * that is not an evaluator answer): waiting cannot make it pass, so the day stops waiting at once.
     */
    public java.util.Optional<TraitVerdict> permanentError() {
        return requiredErrors.stream()
                .filter(e -> e.failureCategory() == dev.interlock.model.run.FailureCategory.PERMANENT)
                .findFirst();
    }

    /** Judges one round of verdicts by all-required-pass. */
    public static Readiness of(List<TraitVerdict> results) {
        return of(results, ReadinessRule.ALL_REQUIRED_PASS);
    }

    /**
     * Judges one round of verdicts by {@code rule}. Pooled traits are resolved optional ({@code required: false}), so
     * they never block alone and a PERMANENT error of one does not stop the day while the others may still pass.
     */
    public static Readiness of(List<TraitVerdict> results, ReadinessRule rule) {
        List<String> blocking = new ArrayList<>(results.stream()
                .filter(r -> !rule.pools(r.type()) && blocks(r.required(), r.passed()))
                .map(TraitVerdict::type)
                .toList());
        List<TraitVerdict> pooled =
                results.stream().filter(r -> rule.pools(r.type())).toList();
        if (pooled.stream().filter(TraitVerdict::passed).count() < rule.needed()) {
            // Short: every pooled trait that did not pass (or was not judged this round) could make up the count.
            for (String type : rule.traits()) {
                if (pooled.stream().noneMatch(r -> r.type().equals(type) && r.passed())) {
                    blocking.add(type);
                }
            }
        }
        List<TraitVerdict> requiredErrors =
                results.stream().filter(r -> r.errored() && r.required()).toList();
        List<TraitVerdict> optionalErrors =
                results.stream().filter(r -> r.errored() && !r.required()).toList();
        return new Readiness(blocking.isEmpty(), blocking, requiredErrors, optionalErrors);
    }

    /**
     * Judges one round by {@code rule} with its deadline fallback: READY when the rule holds; else, once the rule's
     * {@code proceedAt} (resolved in {@code window}, as schedule deadlines are) is not after {@code now} and every
     * {@code essential} trait passed, PROCEED_DEGRADED without the traits that blocked; else NOT_READY.
     */
    public static ReadinessDecision decide(
            List<TraitVerdict> results, ReadinessRule rule, ScheduleWindow window, Instant now) {
        Readiness readiness = of(results, rule);
        Instant proceedAt = proceedAt(rule, window);
        List<String> essentialMissing = rule.essential().stream()
                .filter(type -> results.stream().noneMatch(r -> r.type().equals(type) && r.passed()))
                .toList();
        if (readiness.ready()) {
            return new ReadinessDecision(
                    readiness, ReadinessDecision.Outcome.READY, proceedAt, List.of(), essentialMissing);
        }
        if (proceedAt == null || now.isBefore(proceedAt) || !essentialMissing.isEmpty()) {
            return new ReadinessDecision(
                    readiness, ReadinessDecision.Outcome.NOT_READY, proceedAt, List.of(), essentialMissing);
        }
        return new ReadinessDecision(
                readiness, ReadinessDecision.Outcome.PROCEED_DEGRADED, proceedAt, readiness.blocking(), List.of());
    }

    /** When {@code rule}'s fallback opens in {@code window}; null when the rule has none. */
    public static Instant proceedAt(ReadinessRule rule, ScheduleWindow window) {
        return rule.hasFallback()
                ? ScheduleWindow.deadline(rule.proceedAt(), window.date(), window.zone(), window.opensAt())
                : null;
    }
}
