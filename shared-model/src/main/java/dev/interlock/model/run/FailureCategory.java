package dev.interlock.model.run;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** Why an attempt failed; decides whether it may be retried (statemachine/CONTRACT.md §7). */
public enum FailureCategory {
    TRANSIENT,
    PERMANENT,
    TIMEOUT,
    EVALUATOR_CRASH,
    VALIDATION_EXHAUSTED,
    /**
     * The job system said the job succeeded, but its own records say otherwise (a Glue run {@code SUCCEEDED} with an
     * error message or ERROR/FATAL lines in its driver log, an EMR step {@code COMPLETED} with failure details, an
     * Airflow DAG run {@code success} with failed task instances): the run is FAILED and not cascaded; retried only if
     * listed.
     */
    FALSE_SUCCESS,
    /**
     * The job succeeded, but a required post-run check of its pipeline ({@code postRun}) did not pass (zero rows
     * written, a row count below its threshold …): the run is FAILED and not cascaded; retried only if listed.
     */
    VERIFICATION;

    /**
     * Lenient on purpose: the contract says an empty or unknown category counts as TRANSIENT, so a producer that
     * invents a category can never make a failure silently non-retryable.
     */
    @JsonCreator
    public static FailureCategory fromJson(String raw) {
        if (raw == null || raw.isBlank()) {
            return TRANSIENT;
        }
        String wanted = raw.trim().toUpperCase(Locale.ROOT).replace('-', '_');
        for (FailureCategory c : values()) {
            if (c.name().equals(wanted)) {
                return c;
            }
        }
        return TRANSIENT;
    }

    /** Whether {@code raw} names a category exactly (case-insensitive); config validation uses it. */
    public static boolean isKnown(String raw) {
        if (raw == null) {
            return false;
        }
        String wanted = raw.trim().toUpperCase(Locale.ROOT).replace('-', '_');
        for (FailureCategory c : values()) {
            if (c.name().equals(wanted)) {
                return true;
            }
        }
        return false;
    }

    @JsonValue
    public String wireName() {
        return name();
    }
}
