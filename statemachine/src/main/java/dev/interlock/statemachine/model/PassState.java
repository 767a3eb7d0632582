package dev.interlock.statemachine.model;

import com.fasterxml.jackson.databind.JsonNode;

/** {@code "Type": "Pass"}: passes its input on, optionally shaped by Parameters or replaced by Result. */
public record PassState(
        String name,
        String comment,
        String inputPath,
        String outputPath,
        JsonNode parameters,
        JsonNode result,
        String resultPath,
        Transition transition)
        implements State {

    @Override
    public String type() {
        return "Pass";
    }
}
