package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;

/**
 * One call of a task resource. {@code payload} is what the resource receives (for {@code lambda:invoke} the
 * {@code Payload} parameter, otherwise the effective parameters); {@code target} is the function name or ARN
 * for Lambda tasks and the resource ARN otherwise.
 */
public record TaskInvocation(
        String resource,
        String target,
        JsonNode payload,
        JsonNode parameters,
        String executionArn,
        String stateName,
        int retryCount,
        TaskClock clock) {

    /** The engine's clock as seen by a task: tasks that take time wait here, so timeouts work in virtual time. */
    public interface TaskClock {

        Instant now();

        /** Waits on the engine clock; throws InterruptedException when the task is timed out or aborted. */
        void sleep(Duration duration) throws InterruptedException;
    }
}
