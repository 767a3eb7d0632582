package dev.interlock.evaluator;

import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.trait.TraitResult;
import dev.interlock.model.trait.TraitStatus;

import java.util.Map;

/**
 * The evaluator Lambda's output (CONTRACT §5): {@code traitType}, {@code status} and {@code required} always,
 * {@code value}, {@code reason} and {@code failureCategory} when set.
 */
public record EvaluatorResponse(String traitType, TraitStatus status, Map<String, Object> value, String reason,
                                FailureCategory failureCategory, boolean required) {

    static EvaluatorResponse of(TraitResult result) {
        return new EvaluatorResponse(result.traitType(), result.status(), result.value(), result.reason(),
                result.failureCategory(), result.required());
    }
}
