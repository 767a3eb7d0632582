package dev.interlock.model.trait;

import java.util.List;

/**
 * The readiness rule (all-required-pass) over one evaluation round: ready when every required trait passed; optional
 * traits never block. Required ERROR results also block, and are listed apart because they mean a broken evaluator
 * and must alert; optional ones are listed too, so they can be logged.
 */
public record Readiness(boolean ready, List<String> blocking, List<TraitOutcome> requiredErrors, List<TraitOutcome> optionalErrors) {
    public Readiness {
        blocking = List.copyOf(blocking);
        requiredErrors = List.copyOf(requiredErrors);
        optionalErrors = List.copyOf(optionalErrors);
    }

    /** The rule for one trait: it blocks readiness when it is required and did not pass. */
    public static boolean blocks(boolean required, boolean passed) {
        return required && !passed;
    }

    /** Judges one round of evaluator outputs. */
    public static Readiness of(List<TraitOutcome> results) {
        List<String> blocking = results.stream().filter(r -> blocks(r.isRequired(), r.passed())).map(TraitOutcome::type).toList();
        List<TraitOutcome> requiredErrors = results.stream().filter(r -> r.errored() && r.isRequired()).toList();
        List<TraitOutcome> optionalErrors = results.stream().filter(r -> r.errored() && !r.isRequired()).toList();
        return new Readiness(blocking.isEmpty(), blocking, requiredErrors, optionalErrors);
    }
}
