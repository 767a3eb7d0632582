package dev.interlock.statemachine.json;

/** A JSONPath that does not compile, selects nothing, or cannot be written to. */
public final class PathException extends RuntimeException {

    public PathException(String message) {
        super(message);
    }
}
