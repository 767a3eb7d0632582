package dev.interlock.statemachine.model;

/** {@code "Type": "Wait"}: delays for a duration or until a timestamp. */
public record WaitState(
        String name, String comment, String inputPath, String outputPath, WaitFor waitFor, Transition transition)
        implements State {

    @Override
    public String type() {
        return "Wait";
    }
}
