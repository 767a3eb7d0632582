package dev.interlock.statemachine.model;

/** {@code "Type": "Fail"}: ends its graph with an error; each of error and cause is literal or a path. */
public record FailState(String name, String comment, String error, String errorPath, String cause, String causePath)
        implements State {

    @Override
    public String type() {
        return "Fail";
    }
}
