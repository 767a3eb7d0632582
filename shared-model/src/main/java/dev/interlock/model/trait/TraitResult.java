package dev.interlock.model.trait;

import dev.interlock.model.json.Frozen;
import dev.interlock.model.run.FailureCategory;

import java.time.Instant;
import java.time.LocalDate;
import java.util.Map;

/**
 * The outcome of evaluating one trait for one (pipeline, date, schedule): the evaluator Lambda's output and the
 * stored TRAIT item. {@code failureCategory} is set for ERROR results.
 */
public record TraitResult(
        String pipelineId,
        String scheduleId,
        LocalDate date,
        String traitType,
        TraitStatus status,
        Map<String, Object> value,
        String reason,
        FailureCategory failureCategory,
        boolean required,
        Instant evaluatedAt,
        Instant expiresAt) {
    public TraitResult {
        value = value == null ? null : Frozen.map(value);
    }

    /** Whether this stored result blocks readiness ({@link Readiness#blocks}): optional traits never do. */
    public boolean blocksReadiness() {
        return Readiness.blocks(required, status == TraitStatus.PASS);
    }
}
