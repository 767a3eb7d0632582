package dev.interlock.model.trait;

import java.util.List;

/**
 * The all-required-pass verdict over one evaluation round: ready when every required trait passed. Required
 * ERROR results also block, and are listed apart because they mean a broken evaluator and must alert.
 */
public record Readiness(boolean ready, List<String> blocking, List<String> errored) {
    public Readiness {
        blocking = List.copyOf(blocking);
        errored = List.copyOf(errored);
    }

    /** Judges one round of results; optional traits never block. */
    public static Readiness of(List<TraitResult> results) {
        List<String> blocking = results.stream().filter(TraitResult::blocksReadiness).map(TraitResult::traitType).toList();
        List<String> errored = results.stream()
                .filter(r -> r.required() && r.status() == TraitStatus.ERROR).map(TraitResult::traitType).toList();
        return new Readiness(blocking.isEmpty(), blocking, errored);
    }
}
