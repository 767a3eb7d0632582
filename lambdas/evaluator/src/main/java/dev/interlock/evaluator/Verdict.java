package dev.interlock.evaluator;

import dev.interlock.model.json.Frozen;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.trait.TraitStatus;

import java.util.Map;
import java.util.Objects;

/**
 * What one evaluator said about a trait, before it is stamped and stored. An ERROR always carries a category, so an
 * evaluator outage is never mistaken for a trait that simply did not pass.
 */
record Verdict(TraitStatus status, Map<String, Object> value, String reason, FailureCategory failureCategory) {

    public Verdict {
        Objects.requireNonNull(status, "status");
        value = value == null || value.isEmpty() ? null : Frozen.map(value);
        reason = reason == null || reason.isBlank() ? null : reason;
        if (status == TraitStatus.ERROR && failureCategory == null) {
            failureCategory = FailureCategory.TRANSIENT;
        }
        if (status == TraitStatus.PASS) {
            failureCategory = null;
        }
    }

    /** The same verdict with another reason. */
    Verdict withReason(String newReason) {
        return new Verdict(status, value, newReason, failureCategory);
    }

    static Verdict pass(Map<String, Object> value) {
        return new Verdict(TraitStatus.PASS, value, null, null);
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
