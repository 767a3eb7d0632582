package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * An error raised while running a state. A terminal error (States.Runtime) fails the execution at once: AWS
 * neither retries nor catches it, not even with States.ALL.
 */
final class StatesError extends RuntimeException {

    private final String error;
    private final String cause;
    private final boolean terminal;

    private StatesError(String error, String cause, boolean terminal) {
        super(error + ": " + cause, null, false, false);
        this.error = error;
        this.cause = cause;
        this.terminal = terminal;
    }

    static StatesError of(String error, String cause) {
        return new StatesError(error, cause, false);
    }

    static StatesError runtime(String cause) {
        return new StatesError(StatesErrors.RUNTIME, cause, true);
    }

    String error() {
        return error;
    }

    String cause() {
        return cause;
    }

    boolean terminal() {
        return terminal;
    }

    /** The {@code {"Error","Cause"}} object a Catch hands to its Next state. */
    ObjectNode asOutput() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("Error", error);
        node.put("Cause", cause);
        return node;
    }

    /** Whether a Retry/Catch {@code ErrorEquals} list applies to this error. */
    boolean matches(java.util.List<String> errorEquals) {
        if (terminal) {
            return false;
        }
        for (String name : errorEquals) {
            if (name.equals(error) || name.equals(StatesErrors.ALL)) {
                return true;
            }
            // States.TaskFailed is a wildcard for everything except States.Timeout.
            if (name.equals(StatesErrors.TASK_FAILED) && !StatesErrors.TIMEOUT.equals(error)) {
                return true;
            }
        }
        return false;
    }
}
