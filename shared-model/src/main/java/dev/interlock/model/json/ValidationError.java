package dev.interlock.model.json;

/** One problem in a submitted document, located by a JSON path such as {@code $.schedules[1].deadline}. */
public record ValidationError(String path, String message) {

    @Override
    public String toString() {
        return path + ": " + message;
    }
}
