package dev.interlock.statemachine.model;

import java.util.List;

/** {@code "Type": "Choice"}: goes to the first branch whose rule holds, else to {@code defaultState}. */
public record ChoiceState(
        String name,
        String comment,
        String inputPath,
        String outputPath,
        List<ChoiceBranch> choices,
        String defaultState)
        implements State {

    public ChoiceState {
        choices = List.copyOf(choices);
    }

    @Override
    public String type() {
        return "Choice";
    }
}
