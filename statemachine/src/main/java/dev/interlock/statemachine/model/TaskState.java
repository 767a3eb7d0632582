package dev.interlock.statemachine.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * {@code "Type": "Task"}: invokes a resource. Heartbeat and timeout (fixed or by path) are enforced while a
 * {@code .waitForTaskToken} task waits for its callback.
 */
public record TaskState(
        String name,
        String comment,
        String inputPath,
        String outputPath,
        String resource,
        JsonNode parameters,
        JsonNode resultSelector,
        String resultPath,
        Integer timeoutSeconds,
        String timeoutSecondsPath,
        Integer heartbeatSeconds,
        String heartbeatSecondsPath,
        List<Retrier> retry,
        List<Catcher> catchers,
        Transition transition)
        implements State, State.Recoverable {

    public TaskState {
        retry = List.copyOf(retry);
        catchers = List.copyOf(catchers);
    }

    @Override
    public String type() {
        return "Task";
    }
}
