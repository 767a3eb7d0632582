package dev.interlock.local.cli;

/**
 * An expected failure of a command (unreachable endpoint, unreadable file, refused document): the CLI prints its
 * message as it is, one or two lines, and exits with its code; the stack trace only with {@code --debug}.
 */
final class CliFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** A command that did not do what was asked. */
    static final int FAILED = 1;
    /** The command line itself is wrong (unknown command or option, bad option value). */
    static final int USAGE = 2;
    /** Stopped by Ctrl-C (128 + SIGINT), as a shell reports it. */
    static final int INTERRUPTED = 130;

    private final int exitCode;

    CliFailure(String message) {
        this(message, FAILED, null);
    }

    CliFailure(String message, int exitCode, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    int exitCode() {
        return exitCode;
    }
}
