package dev.interlock.model.pipeline;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.interlock.model.json.Frozen;
import dev.interlock.model.run.FailureCategory;
import java.time.Duration;
import java.util.List;

/**
 * How failed attempts of one (pipeline, date, schedule) are retried. Every absent field takes its own default
 * (docs/pipeline-reference.md), unlike the Go original where a partial {@code retry} object zeroed the rest.
 */
public record RetryPolicy(
        int maxAttempts, int backoffSeconds, double backoffMultiplier, List<FailureCategory> retryableFailures) {

    public static final int DEFAULT_MAX_ATTEMPTS = 3;
    public static final int DEFAULT_BACKOFF_SECONDS = 30;
    public static final double DEFAULT_BACKOFF_MULTIPLIER = 2.0;
    public static final List<FailureCategory> DEFAULT_RETRYABLE =
            List.of(FailureCategory.TRANSIENT, FailureCategory.TIMEOUT);
    /** No single wait is longer than an hour, whatever the multiplier. */
    public static final long MAX_BACKOFF_SECONDS = 3600;

    /** The policy of a pipeline without a {@code retry} block. */
    public static final RetryPolicy DEFAULT = new RetryPolicy(
            DEFAULT_MAX_ATTEMPTS, DEFAULT_BACKOFF_SECONDS, DEFAULT_BACKOFF_MULTIPLIER, DEFAULT_RETRYABLE);

    public RetryPolicy {
        retryableFailures = retryableFailures == null || retryableFailures.isEmpty()
                ? DEFAULT_RETRYABLE
                : Frozen.list(retryableFailures);
    }

    /** Reads a {@code retry} block, defaulting each absent field on its own. */
    @JsonCreator
    public static RetryPolicy fromJson(
            @JsonProperty("maxAttempts") Integer maxAttempts,
            @JsonProperty("backoffSeconds") Integer backoffSeconds,
            @JsonProperty("backoffMultiplier") Double backoffMultiplier,
            @JsonProperty("retryableFailures") List<FailureCategory> retryableFailures) {
        return new RetryPolicy(
                maxAttempts == null ? DEFAULT_MAX_ATTEMPTS : maxAttempts,
                backoffSeconds == null ? DEFAULT_BACKOFF_SECONDS : backoffSeconds,
                backoffMultiplier == null ? DEFAULT_BACKOFF_MULTIPLIER : backoffMultiplier,
                retryableFailures);
    }

    /**
     * Wait before attempt {@code attempt + 1} after attempt {@code attempt} failed: attempt ≤ 1 waits
     * {@code backoffSeconds}, later ones {@code backoffSeconds × multiplier^(attempt−1)} (multiplier ≤ 0 means
     * 2.0), capped at {@link #MAX_BACKOFF_SECONDS}, fractions of a second truncated.
     */
    public Duration backoff(int attempt) {
        long base = Math.max(0, backoffSeconds);
        if (attempt <= 1) {
            return Duration.ofSeconds(Math.min(base, MAX_BACKOFF_SECONDS));
        }
        double multiplier = backoffMultiplier <= 0 || Double.isNaN(backoffMultiplier)
                ? DEFAULT_BACKOFF_MULTIPLIER
                : backoffMultiplier;
        double seconds = base * Math.pow(multiplier, attempt - 1);
        // Infinity and huge values land on the cap instead of overflowing the long conversion.
        long capped = seconds >= MAX_BACKOFF_SECONDS ? MAX_BACKOFF_SECONDS : (long) seconds;
        return Duration.ofSeconds(capped);
    }

    /** Whether a failure of this category may be retried at all; PERMANENT never, null counts as TRANSIENT. */
    public boolean isRetryable(FailureCategory category) {
        FailureCategory effective = category == null ? FailureCategory.TRANSIENT : category;
        return effective != FailureCategory.PERMANENT && retryableFailures.contains(effective);
    }

    /** Whether another attempt follows attempt {@code attemptsUsed} failing with {@code category}. */
    public boolean retriesAfter(int attemptsUsed, FailureCategory category) {
        return isRetryable(category) && attemptsUsed < maxAttempts;
    }
}
