package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.databind.JsonNode;

/** Something a Task state can call: a Lambda function, an SNS topic publisher, a stub in a test. */
@FunctionalInterface
public interface TaskResource {

    /**
     * Runs the task and returns its result. Throw {@link TaskFailedException} for an error the state machine
     * may retry or catch; any other runtime exception is reported with its class name as the error.
     */
    JsonNode invoke(TaskInvocation invocation) throws TaskFailedException, InterruptedException;
}
