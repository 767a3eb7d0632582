package dev.interlock.statemachine.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** A set of states with an entry point: the machine itself, a Parallel branch or a Map item processor. */
public record StateGraph(String startAt, Map<String, State> states) {

    public StateGraph {
        // Keep document order: the validator and the tests report states in the order they were written.
        states = Collections.unmodifiableMap(new LinkedHashMap<>(states));
    }

    public State state(String name) {
        return states.get(name);
    }
}
