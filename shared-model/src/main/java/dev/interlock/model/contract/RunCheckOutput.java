package dev.interlock.model.contract;

import java.util.Objects;

/**
 * The run-checker Lambda's output (statemachine/CONTRACT.md §5), also what the orchestrator's callback sends the
 * waiting machine with SendTaskSuccess: {@code state} (the wire name of what the poll found: {@code running},
 * {@code succeeded}, {@code failed}), {@code message} and {@code failureCategory} always present
 * ({@code EvaluatePollResult} and {@code LogRunFailed} read them); the category is {@code ""} unless failed.
 */
public record RunCheckOutput(String state, String message, String failureCategory) {

    public RunCheckOutput {
        Objects.requireNonNull(state, "state");
        message = message == null ? "" : message;
        failureCategory = failureCategory == null ? "" : failureCategory;
    }
}
