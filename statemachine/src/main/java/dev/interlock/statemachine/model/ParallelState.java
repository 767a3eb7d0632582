package dev.interlock.statemachine.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/** {@code "Type": "Parallel"}: runs every branch on the same input; the output is the array of branch outputs. */
public record ParallelState(
        String name,
        String comment,
        String inputPath,
        String outputPath,
        List<StateGraph> branches,
        JsonNode parameters,
        JsonNode resultSelector,
        String resultPath,
        List<Retrier> retry,
        List<Catcher> catchers,
        Transition transition)
        implements State, State.Recoverable {

    public ParallelState {
        branches = List.copyOf(branches);
        retry = List.copyOf(retry);
        catchers = List.copyOf(catchers);
    }

    @Override
    public String type() {
        return "Parallel";
    }
}
