package dev.interlock.runchecker;

import dev.interlock.jobs.RunCheck;
import dev.interlock.jobs.RunCheckState;
import dev.interlock.model.run.FailureCategory;

import java.util.Objects;

/**
 * The run-checker Lambda's output (CONTRACT §5): {@code state}, {@code message} and {@code failureCategory} always
 * present ({@code EvaluatePollResult} and {@code LogRunFailed} read them); the category is {@code ""} unless failed.
 */
public record RunCheckOutput(String state, String message, String failureCategory) {

    public RunCheckOutput {
        Objects.requireNonNull(state, "state");
        message = message == null ? "" : message;
        failureCategory = failureCategory == null ? "" : failureCategory;
    }

    static RunCheckOutput of(RunCheck check) {
        // A check that failed but will be retried carries a category for the logs only: the machine must not see
        // one on a running answer.
        String category = check.state() == RunCheckState.FAILED ? check.failureCategory().wireName() : "";
        return new RunCheckOutput(check.state().wireName(), check.message(), category);
    }

    static RunCheckOutput failed(String message, FailureCategory category) {
        return new RunCheckOutput(RunCheckState.FAILED.wireName(), message, category.wireName());
    }
}
