package dev.interlock.jobs;

import dev.interlock.store.Backoff;
import java.time.Duration;

/** A backoff that never waits, for trigger tests whose retries are not what they test. */
final class NoWait {

    static final Backoff BACKOFF = new Backoff(3, Duration.ZERO, Duration.ZERO, () -> 0, d -> {});

    private NoWait() {}
}
