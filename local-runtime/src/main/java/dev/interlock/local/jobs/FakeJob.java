package dev.interlock.local.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How a job fake of the local runtime behaves, read from the job's own arguments with the same two keys for every job
 * type: {@code --fake-duration-seconds} (product time, so {@code --time-scale} shortens it; default
 * {@value #DEFAULT_DURATION_SECONDS}) and {@code --fake-outcome} ({@code SUCCEEDED}, the default, or {@code FAILED}).
 * A Glue job reads them from its {@code Arguments}, an EMR step from its args, an EMR Serverless job run from its
 * {@code entryPointArguments} ({@code --key value} or {@code --key=value}), a Step Functions execution from its input
 * and a Lambda function from its payload (top-level fields).
 */
public record FakeJob(Duration duration, Outcome outcome) {

    public static final String DURATION_KEY = "--fake-duration-seconds";
    public static final String OUTCOME_KEY = "--fake-outcome";
    /**
     * Glue only, read by the Glue fake itself: {@value #STOP_IGNORED} makes the run accept BatchStopJobRun and still
     * run on to its outcome (a job in its final commit when the stop came), so a job succeeding after Interlock gave up
     * on it can be played.
     */
    public static final String STOP_KEY = "--fake-stop";
    /** The {@link #STOP_KEY} value that makes a run ignore a stop. */
    public static final String STOP_IGNORED = "ignored";
    /**
     * Glue only: lines (one per line of the value) the run's driver wrote to its error log, {@code /aws-glue/jobs/error}
     * stream {@code <job run id>}, which the local CloudWatch Logs endpoint serves ({@link GlueLogs}): a run that ends
     * SUCCEEDED with ERROR lines there plays a job that lies about its success.
     */
    public static final String LOG_ERRORS_KEY = "--fake-log-errors";
    /** Glue only: the {@code ErrorMessage} a run that ends SUCCEEDED carries anyway (another lie). */
    public static final String ERROR_MESSAGE_KEY = "--fake-error-message";

    static final int DEFAULT_DURATION_SECONDS = 30;
    /** Longer than any pipeline's job could be followed: a typo such as 36000000 is refused, not waited for. */
    private static final Duration MAX_DURATION = Duration.ofDays(7);

    /** How the job ends. */
    public enum Outcome {
        SUCCEEDED,
        FAILED
    }

    /** A job with no fake arguments. */
    public static final FakeJob DEFAULT = new FakeJob(Duration.ofSeconds(DEFAULT_DURATION_SECONDS), Outcome.SUCCEEDED);

    /** From key/value arguments (Glue {@code Arguments}). Bad values are an {@link IllegalArgumentException} naming the key. */
    public static FakeJob fromMap(Map<String, String> arguments) {
        return of(
                arguments == null ? null : arguments.get(DURATION_KEY),
                arguments == null ? null : arguments.get(OUTCOME_KEY));
    }

    /** From the top-level fields of a JSON object (a Step Functions input, a Lambda payload); anything else: defaults. */
    public static FakeJob fromJson(JsonNode object) {
        if (object == null || !object.isObject()) {
            return DEFAULT;
        }
        return of(scalar(object.get(DURATION_KEY)), scalar(object.get(OUTCOME_KEY)));
    }

    /** From command-line style arguments: {@code --key value} or {@code --key=value}. */
    public static FakeJob fromArgs(List<String> args) {
        String duration = null;
        String outcome = null;
        for (int i = 0; args != null && i < args.size(); i++) {
            String arg = args.get(i);
            if (arg == null) {
                continue;
            }
            String next = i + 1 < args.size() ? args.get(i + 1) : null;
            if ((arg.equals(DURATION_KEY) || arg.equals(OUTCOME_KEY)) && next == null) {
                throw new IllegalArgumentException(arg + " needs a value after it");
            }
            if (arg.equals(DURATION_KEY)) {
                duration = next;
                i++;
            } else if (arg.startsWith(DURATION_KEY + "=")) {
                duration = arg.substring(DURATION_KEY.length() + 1);
            } else if (arg.equals(OUTCOME_KEY)) {
                outcome = next;
                i++;
            } else if (arg.startsWith(OUTCOME_KEY + "=")) {
                outcome = arg.substring(OUTCOME_KEY.length() + 1);
            }
        }
        return of(duration, outcome);
    }

    private static FakeJob of(String durationText, String outcomeText) {
        Duration duration = DEFAULT.duration();
        if (durationText != null) {
            try {
                BigDecimal seconds = new BigDecimal(durationText.trim());
                if (seconds.signum() < 0) {
                    throw new NumberFormatException("negative");
                }
                duration = Duration.ofMillis(seconds.movePointRight(3).longValueExact());
            } catch (NumberFormatException | ArithmeticException e) {
                throw new IllegalArgumentException(
                        DURATION_KEY + " must be a number of seconds, 0 or more; got '" + durationText + "'");
            }
            if (duration.compareTo(MAX_DURATION) > 0) {
                throw new IllegalArgumentException(DURATION_KEY + " must be at most " + MAX_DURATION.toSeconds()
                        + " seconds; got '" + durationText + "'");
            }
        }
        Outcome outcome = DEFAULT.outcome();
        if (outcomeText != null) {
            try {
                outcome = Outcome.valueOf(outcomeText.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        OUTCOME_KEY + " must be SUCCEEDED or FAILED; got '" + outcomeText + "'");
            }
        }
        return new FakeJob(duration, outcome);
    }

    private static String scalar(JsonNode value) {
        return value == null || value.isNull() || value.isContainerNode() ? null : value.asText();
    }
}
