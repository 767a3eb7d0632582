package dev.interlock.statemachine.model;

import java.util.Map;

/** A parsed Amazon States Language document. */
public record StateMachineDefinition(String comment, StateGraph graph, Integer timeoutSeconds, String version) {

    public String startAt() {
        return graph.startAt();
    }

    public Map<String, State> states() {
        return graph.states();
    }

    /** Parses an ASL document; see {@link AslParser#parse(String)}. */
    public static StateMachineDefinition parse(String json) {
        return AslParser.parse(json);
    }
}
