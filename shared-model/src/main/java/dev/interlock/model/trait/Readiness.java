package dev.interlock.model.trait;

import java.util.List;

/**
 * The readiness rule (all-required-pass) over one evaluation round: ready when every required trait passed; optional
 * traits never block. Required ERROR results also block, and are listed apart because they mean a broken evaluator
 * and must alert; optional ones are listed too, so they can be logged.
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

    /** Judges one round of verdicts. */
    public static Readiness of(List<TraitVerdict> results) {
        List<String> blocking = results.stream()
                .filter(r -> blocks(r.required(), r.passed()))
                .map(TraitVerdict::type)
                .toList();
        List<TraitVerdict> requiredErrors =
                results.stream().filter(r -> r.errored() && r.required()).toList();
        List<TraitVerdict> optionalErrors =
                results.stream().filter(r -> r.errored() && !r.required()).toList();
        return new Readiness(blocking.isEmpty(), blocking, requiredErrors, optionalErrors);
    }
}
