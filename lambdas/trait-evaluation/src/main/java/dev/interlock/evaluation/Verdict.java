package dev.interlock.evaluation;

import dev.interlock.model.json.Frozen;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.trait.TraitStatus;
import dev.interlock.model.trait.TraitVerdict;
import java.util.Map;
import java.util.Objects;

/**
 * What one evaluator said about a trait (an external evaluator's answer, or a builtin's), before {@link TraitEvaluation}
 * makes it the trait's {@link TraitVerdict} with the trait's type and required flag. Its category follows the
 * verdict's rule ({@link TraitVerdict#category}).
 */
record Verdict(TraitStatus status, Map<String, Object> value, String reason, FailureCategory failureCategory) {

    public Verdict {
        Objects.requireNonNull(status, "status");
        value = value == null || value.isEmpty() ? null : Frozen.map(value);
        reason = reason == null || reason.isBlank() ? null : reason;
        failureCategory = TraitVerdict.category(status, failureCategory);
    }

    /** The same verdict with another reason. */
    Verdict withReason(String newReason) {
        return new Verdict(status, value, newReason, failureCategory);
    }

    static Verdict pass(Map<String, Object> value) {
        return new Verdict(TraitStatus.PASS, value, null, null);
    }

    /** A pass that says why (a rollup's tally). */
    static Verdict pass(Map<String, Object> value, String reason) {
        return new Verdict(TraitStatus.PASS, value, reason, null);
    }

    static Verdict fail(String reason, Map<String, Object> value) {
        return new Verdict(TraitStatus.FAIL, value, reason, null);
    }

    static Verdict stale(String reason, Map<String, Object> value) {
        return new Verdict(TraitStatus.STALE, value, reason, null);
    }

    static Verdict error(String reason, FailureCategory category) {
        return new Verdict(TraitStatus.ERROR, null, reason, Objects.requireNonNull(category, "category"));
    }
}
