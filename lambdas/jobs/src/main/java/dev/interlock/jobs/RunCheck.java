package dev.interlock.jobs;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.interlock.model.run.FailureCategory;
import java.util.Objects;

/**
 * The result of one poll: the mapped state, the provider's own words, and for a failure (or a check that failed and
 * will be retried at the next poll) its category.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RunCheck(RunCheckState state, String message, FailureCategory failureCategory) {

    public RunCheck {
        Objects.requireNonNull(state, "state");
        message = message == null ? "" : message;
        if (state == RunCheckState.FAILED && failureCategory == null) {
            failureCategory = FailureCategory.TRANSIENT;
        }
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
}
