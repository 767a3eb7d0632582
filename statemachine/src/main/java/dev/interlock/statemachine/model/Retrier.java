package dev.interlock.statemachine.model;

import java.util.List;

/** One entry of a state's {@code Retry} array. */
public record Retrier(
        List<String> errorEquals,
        int intervalSeconds,
        int maxAttempts,
        double backoffRate,
        Integer maxDelaySeconds,
        JitterStrategy jitterStrategy) {

    public static final int DEFAULT_INTERVAL_SECONDS = 1;
    public static final int DEFAULT_MAX_ATTEMPTS = 3;
    public static final double DEFAULT_BACKOFF_RATE = 2.0;

    public Retrier {
        errorEquals = List.copyOf(errorEquals);
    }

    /** Randomisation applied to the computed retry interval. */
    public enum JitterStrategy {
        NONE,
        FULL
    }
}
