package dev.interlock.statemachine.engine;

/** A task's failure as Step Functions sees it: an error name for Retry/Catch matching and a cause text. */
public final class TaskFailedException extends Exception {

    private final String error;
    private final String cause;

    public TaskFailedException(String error, String cause) {
        super(error + ": " + cause);
        this.error = error;
        this.cause = cause;
    }

    public String error() {
        return error;
    }

    /** The cause text (named so it does not shadow {@link Throwable#getCause()}). */
    public String causeText() {
        return cause;
    }
}
