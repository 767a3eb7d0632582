package dev.interlock.model.trait;

import dev.interlock.model.json.Frozen;
import dev.interlock.model.run.FailureCategory;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Map;

/**
 * The stored TRAIT item of one (pipeline, date, schedule, trait): the {@link TraitVerdict} the evaluator answered,
 * with when it was evaluated and when the item expires. {@code failureCategory} is set for ERROR results.
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

    /** The stored item of {@code verdict}, evaluated at {@code evaluatedAt} for (pipeline, date, schedule). */
    public static TraitResult of(
            String pipelineId,
            String scheduleId,
            LocalDate date,
            TraitVerdict verdict,
            Instant evaluatedAt,
            Instant expiresAt) {
        return new TraitResult(
                pipelineId,
                scheduleId,
                date,
                verdict.traitType(),
                verdict.status(),
                verdict.value(),
                verdict.reason(),
                verdict.failureCategory(),
                verdict.required(),
                evaluatedAt,
                expiresAt);
    }

    /** The verdict this item stores: what the evaluator answered the machine. */
    public TraitVerdict verdict() {
        return new TraitVerdict(traitType, status, value, reason, failureCategory, required);
    }
}
