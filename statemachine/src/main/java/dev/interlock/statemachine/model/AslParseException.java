package dev.interlock.statemachine.model;

import java.util.List;

/** Thrown when an ASL document is not JSON or has fields of the wrong shape; lists every problem found. */
public final class AslParseException extends RuntimeException {

    private final List<String> problems;

    public AslParseException(List<String> problems) {
        super("Invalid ASL document: " + String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
