package dev.interlock.model.run;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * {@code minInterval}: a run of a pipeline day starts no sooner than this after the day's previous run started, so a
 * rerun, a drift replay or a retry that is ready at once still leaves the interval between two jobs of one day.
 */
public final class Spacing {

    private Spacing() {}

    /**
     * Until when a ready round of a new run waits: {@code previousStart} plus {@code minInterval}, if that is after
     * {@code now}; empty without a previous run or a spacing, or once the interval has passed.
     */
    public static Optional<Instant> holdsUntil(Instant previousStart, Duration minInterval, Instant now) {
        if (previousStart == null || minInterval == null || minInterval.isZero() || minInterval.isNegative()) {
            return Optional.empty();
        }
        Instant until = previousStart.plus(minInterval);
        return now.isBefore(until) ? Optional.of(until) : Optional.empty();
    }
}
