package dev.interlock.api;

import java.util.Optional;

/**
 * The executions of the pipeline state machine as the operator's unlock needs them: a lock's owner is the name of the
 * execution that holds it, and an unlock must not let a second execution start the day's job beside a live holder.
 */
interface HolderExecutions {

    /** No execution is known to be running (API tests built by hand, without a state machine). */
    HolderExecutions NONE = new HolderExecutions() {
        @Override
        public Optional<String> status(String executionName) {
            return Optional.empty();
        }

        @Override
        public void stop(String executionName, String cause) {
            throw new IllegalStateException("no state machine to stop " + executionName + " in");
        }
    };

    /** The Step Functions status of the named execution ({@code RUNNING}, {@code ABORTED}…); empty when none exists. */
    Optional<String> status(String executionName);

    /** Stops the named execution (StopExecution) with {@code cause}. */
    void stop(String executionName, String cause);
}
