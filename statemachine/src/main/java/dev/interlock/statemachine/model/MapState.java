package dev.interlock.statemachine.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * {@code "Type": "Map"} (inline mode): runs {@code itemProcessor} for every item of the array at {@code itemsPath}.
 * {@code itemSelector} holds ItemSelector or the legacy Parameters; {@code maxConcurrency} 0 means unlimited.
 */
public record MapState(
        String name,
        String comment,
        String inputPath,
        String outputPath,
        String itemsPath,
        JsonNode itemSelector,
        StateGraph itemProcessor,
        int maxConcurrency,
        String maxConcurrencyPath,
        JsonNode resultSelector,
        String resultPath,
        List<Retrier> retry,
        List<Catcher> catchers,
        Transition transition)
        implements State, State.Recoverable {

    public MapState {
        retry = List.copyOf(retry);
        catchers = List.copyOf(catchers);
    }

    @Override
    public String type() {
        return "Map";
    }
}
