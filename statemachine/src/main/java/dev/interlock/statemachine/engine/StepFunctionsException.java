package dev.interlock.statemachine.engine;

/** A rejected API call; {@link #code()} is the AWS error code an HTTP front end returns (HTTP 400). */
public final class StepFunctionsException extends RuntimeException {

    /** The AWS Step Functions error codes these operations can produce. */
    public enum Code {
        ExecutionAlreadyExists,
        ExecutionDoesNotExist,
        InvalidName,
        InvalidExecutionInput,
        InvalidArn,
        InvalidToken,
        InvalidOutput,
        TaskDoesNotExist
    }

    private final Code code;

    public StepFunctionsException(Code code, String message) {
        super(message);
        this.code = code;
    }

    public Code code() {
        return code;
    }
}
