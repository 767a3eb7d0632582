package dev.interlock.jobs;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.interlock.model.run.FailureCategory;
import java.util.Objects;

/**
 * The result of one poll: the mapped state, the provider's own words, and for a failure (or a check that failed and
 * will be retried at the next poll) its category.
 *
 * @param stoppedAs for a job the job system reports stopped rather than failed (someone stopped it), that terminal
 *     state, e.g. Glue {@code STOPPED}; null otherwise ({@link dev.interlock.model.run.JobStop})
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RunCheck(RunCheckState state, String message, FailureCategory failureCategory, String stoppedAs) {

    public RunCheck {
        Objects.requireNonNull(state, "state");
        message = message == null ? "" : message;
        if (state == RunCheckState.FAILED && failureCategory == null) {
            failureCategory = FailureCategory.TRANSIENT;
        }
        if (state != RunCheckState.FAILED) {
            stoppedAs = null;
        }
    }

    /** A result that is not a stop. */
    public RunCheck(RunCheckState state, String message, FailureCategory failureCategory) {
        this(state, message, failureCategory, null);
    }

    public static RunCheck running(String message) {
        return new RunCheck(RunCheckState.RUNNING, message, null);
    }

    public static RunCheck succeeded(String message) {
        return new RunCheck(RunCheckState.SUCCEEDED, message, null);
    }

    public static RunCheck failed(String message, FailureCategory category) {
        return new RunCheck(RunCheckState.FAILED, message, category);
    }

    /**
     * A job the job system reports stopped ({@code state}, e.g. Glue {@code STOPPED}): failed {@code PERMANENT}, as
     * before, and marked as a stop.
     */
    public static RunCheck stopped(String state, String message) {
        return new RunCheck(RunCheckState.FAILED, message, FailureCategory.PERMANENT, state);
    }
}
