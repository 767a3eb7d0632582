package dev.interlock.statemachine.model;

import dev.interlock.statemachine.DefinitionSubstitution;
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

    /**
     * Substitutes {@code ${Name}} placeholders (as the CDK's definitionSubstitutions do) and parses the result;
     * throws IllegalArgumentException when a placeholder has no value.
     */
    public static StateMachineDefinition parse(String json, Map<String, String> substitutions) {
        return AslParser.parse(DefinitionSubstitution.apply(json, substitutions).requireComplete());
    }
}
