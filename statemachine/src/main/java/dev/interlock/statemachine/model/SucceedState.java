package dev.interlock.statemachine.model;

/** {@code "Type": "Succeed"}: ends its graph successfully. */
public record SucceedState(String name, String comment, String inputPath, String outputPath) implements State {

    @Override
    public String type() {
        return "Succeed";
    }
}
