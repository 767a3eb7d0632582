package dev.interlock.deps.outbound;

import java.time.Duration;

/** Waits between retries; tests inject one that advances a fake clock instead of sleeping. */
@FunctionalInterface
public interface Sleeper {

    void sleep(Duration duration) throws InterruptedException;

    /** Really waits. */
    static Sleeper system() {
        return duration -> Thread.sleep(duration);
    }
}
