package dev.interlock.statemachine.model;

/** One structural problem of a definition, located by a dotted path such as {@code States.Lock.Next}. */
public record ValidationProblem(String location, String message) {

    @Override
    public String toString() {
        return location + ": " + message;
    }
}
