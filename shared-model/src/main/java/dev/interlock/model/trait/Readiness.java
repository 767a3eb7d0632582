package dev.interlock.model.trait;

import dev.interlock.model.pipeline.ReadinessRule;
import dev.interlock.model.rollup.RollupTally;
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
     * {@code essential} trait passed, PROCEED_DEGRADED without the traits that blocked; else NOT_READY. A rollup trait
     * with {@code minCount} of its periods in but not all counts as passed from {@code proceedAt} on (at once when the
     * rule has none), which makes the round PROCEED_DEGRADED without its missing periods.
     */
    public static ReadinessDecision decide(
            List<TraitVerdict> results, ReadinessRule rule, ScheduleWindow window, Instant now) {
        Instant proceedAt = proceedAt(rule, window);
        // A rollup with enough of its periods in (minCount) but not all does, from proceedAt on (at once without one):
        // judged as passed, and named with its missing periods among what the day went without. Only when the round
        // needs it: a round ready without it (an optional rollup, a pool made up by others) is simply READY.
        List<TraitVerdict> partial = (proceedAt == null || !now.isBefore(proceedAt))
                        && !of(results, rule).ready()
                ? results.stream().filter(Readiness::partialRollup).toList()
                : List.of();
        List<TraitVerdict> judged = partial.isEmpty()
                ? results
                : results.stream()
                        .map(r -> partial.contains(r) ? asPassed(r) : r)
                        .toList();
        Readiness readiness = of(judged, rule);
        List<String> partialWords = partial.stream()
                .map(r -> RollupTally.fromValue(r.value()).orElseThrow().without(r.type()))
                .toList();
        List<String> essentialMissing = rule.essential().stream()
                .filter(type -> judged.stream().noneMatch(r -> r.type().equals(type) && r.passed()))
                .toList();
        if (readiness.ready()) {
            return partial.isEmpty()
                    ? new ReadinessDecision(
                            readiness, ReadinessDecision.Outcome.READY, proceedAt, List.of(), essentialMissing)
                    : new ReadinessDecision(
                            readiness, ReadinessDecision.Outcome.PROCEED_DEGRADED, proceedAt, partialWords, List.of());
        }
        if (proceedAt == null || now.isBefore(proceedAt) || !essentialMissing.isEmpty()) {
            return new ReadinessDecision(
                    of(results, rule), ReadinessDecision.Outcome.NOT_READY, proceedAt, List.of(), essentialMissing);
        }
        List<String> without = new ArrayList<>(readiness.blocking());
        without.addAll(partialWords);
        return new ReadinessDecision(
                readiness, ReadinessDecision.Outcome.PROCEED_DEGRADED, proceedAt, without, List.of());
    }

    /** A rollup verdict that did not pass though enough of its periods are in ({@link RollupTally#enough}). */
    static boolean partialRollup(TraitVerdict verdict) {
        return verdict.status() == TraitStatus.FAIL
                && RollupTally.fromValue(verdict.value())
                        .map(RollupTally::enough)
                        .orElse(false);
    }

    private static TraitVerdict asPassed(TraitVerdict verdict) {
        return new TraitVerdict(
                verdict.traitType(), TraitStatus.PASS, verdict.value(), verdict.reason(), null, verdict.required());
    }

    /** When {@code rule}'s fallback opens in {@code window}; null when the rule has none. */
    public static Instant proceedAt(ReadinessRule rule, ScheduleWindow window) {
        return rule.hasFallback()
                ? ScheduleWindow.deadline(rule.proceedAt(), window.date(), window.zone(), window.opensAt())
                : null;
    }
}
