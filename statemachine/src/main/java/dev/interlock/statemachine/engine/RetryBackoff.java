package dev.interlock.statemachine.engine;

import dev.interlock.statemachine.model.Retrier;
import java.time.Duration;
import java.util.random.RandomGenerator;

/** The wait before a retry: IntervalSeconds × BackoffRate^n, capped by MaxDelaySeconds, with optional full jitter. */
final class RetryBackoff {

    private RetryBackoff() {}

    /** The delay before retry number {@code previousRetries + 1} of this retrier. */
    static Duration delay(Retrier retrier, int previousRetries, RandomGenerator random) {
        double seconds = retrier.intervalSeconds() * Math.pow(retrier.backoffRate(), previousRetries);
        if (retrier.maxDelaySeconds() != null) {
            seconds = Math.min(seconds, retrier.maxDelaySeconds());
        }
        if (retrier.jitterStrategy() == Retrier.JitterStrategy.FULL) {
            seconds = random.nextDouble() * seconds;
        }
        return Duration.ofMillis(Math.round(seconds * 1000));
    }
}
