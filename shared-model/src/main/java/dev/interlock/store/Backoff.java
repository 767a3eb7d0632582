package dev.interlock.store;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * Bounded exponential backoff with full jitter for throttling and write contention: before retry {@code n} (1-based)
 * wait a uniformly random time in {@code [0, min(cap, base * 2^(n-1))]}, so contending writers spread out instead of
 * retrying in lockstep. The jitter source and the sleeper are injected, so tests never sleep.
 *
 * @param maxAttempts attempts in total, the first included
 * @param jitter      uniform values in [0, 1)
 */
public record Backoff(int maxAttempts, Duration base, Duration cap, DoubleSupplier jitter, Sleeper sleeper) {

    /** Waits; the production one is {@link Thread#sleep}. */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(Duration duration) throws InterruptedException;
    }

    /** What the Lambdas use: 10 attempts, 20 ms doubling up to 1 s (at most ~4 s of waiting in all). */
    public static Backoff standard() {
        return new Backoff(
                10,
                Duration.ofMillis(20),
                Duration.ofSeconds(1),
                () -> ThreadLocalRandom.current().nextDouble(),
                d -> Thread.sleep(d));
    }

    public Backoff {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1: " + maxAttempts);
        }
        if (base.isNegative() || cap.isNegative() || cap.compareTo(base) < 0) {
            throw new IllegalArgumentException("need 0 <= base <= cap: " + base + ", " + cap);
        }
    }

    /** The wait before retry {@code retry} (1 = the first retry). */
    public Duration delayBefore(int retry) {
        long ceiling = base.toMillis() << Math.min(retry - 1, 30);
        long bounded = ceiling < 0 ? cap.toMillis() : Math.min(cap.toMillis(), ceiling);
        return Duration.ofMillis((long) Math.floor(jitter.getAsDouble() * (bounded + 1)));
    }

    /** Whether another attempt is allowed after {@code attemptsMade}. */
    public boolean allowsAnotherAfter(int attemptsMade) {
        return attemptsMade < maxAttempts;
    }

    /** Waits before retry {@code retry}; an interrupt stops the operation {@code what} with a StoreException. */
    public void pause(int retry, String what) {
        try {
            sleeper.sleep(delayBefore(retry));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException("interrupted while backing off before retry " + retry + " of " + what, e);
        }
    }
}
