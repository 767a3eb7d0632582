package dev.interlock.statemachine.model;

import java.util.List;

/** One entry of a state's {@code Catch} array; {@code resultPath} null means the error output is discarded. */
public record Catcher(List<String> errorEquals, String next, String resultPath) {

    public Catcher {
        errorEquals = List.copyOf(errorEquals);
    }
}
