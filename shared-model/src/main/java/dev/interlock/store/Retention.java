package dev.interlock.store;

import java.time.Duration;

/**
 * How long each kind of item lives (its {@code ttl}); both Providers apply it so callers never compute expiry.
 * Trait results, sensors and locks carry their own expiry instead.
 */
public record Retention(
        Duration runs,
        Duration runLogs,
        Duration events,
        Duration markers,
        Duration lateArrivals,
        Duration reruns,
        Duration alertDedup) {

    /** docs/table-design.md: run logs, markers, late arrivals and reruns 30 days, alert dedup 7 days; runs and events 30 days. */
    public static final Retention DEFAULT = new Retention(
            Duration.ofDays(30),
            Duration.ofDays(30),
            Duration.ofDays(30),
            Duration.ofDays(30),
            Duration.ofDays(30),
            Duration.ofDays(30),
            Duration.ofDays(7));

    public Retention {
        for (Duration d : new Duration[] {runs, runLogs, events, markers, lateArrivals, reruns, alertDedup}) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("every retention must be positive: " + d);
            }
        }
    }
}
