package dev.interlock.orchestrator;

import java.util.Optional;

/**
 * Ends the wait of a {@code .waitForTaskToken} task: Step Functions' SendTaskSuccess and SendTaskFailure; and
 * DescribeExecution of a lock holder for the watchdog's holder check. The only Step Functions calls the orchestrator
 * makes (the stack grants exactly these on the state machine and its executions).
 */
public interface TaskCallbacks {

    /**
     * The Step Functions status of the execution {@code executionArn} ({@code RUNNING}, {@code ABORTED}…); empty when
     * no such execution exists.
     */
    default Optional<String> executionStatus(String executionArn) {
        throw new IllegalStateException("no Step Functions client to describe " + executionArn + " with");
    }

    /** Sends the task's result; false when the token no longer waits (its task timed out, was stopped or ended). */
    boolean succeed(String taskToken, String outputJson);

    /** Fails the task with {@code error}; false when the token no longer waits. */
    boolean fail(String taskToken, String error, String cause);

    /** For dispatchers built without Step Functions (unit tests of other actions): any callback is a fault. */
    static TaskCallbacks unavailable() {
        return new TaskCallbacks() {
            @Override
            public boolean succeed(String taskToken, String outputJson) {
                throw new IllegalStateException("no Step Functions client to send the task result with");
            }

            @Override
            public boolean fail(String taskToken, String error, String cause) {
                throw new IllegalStateException("no Step Functions client to send the task failure with");
            }
        };
    }
}
