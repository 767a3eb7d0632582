package dev.interlock.store;

import dev.interlock.model.keys.LockKey;

import java.time.Duration;
import java.util.Optional;

/** Evaluation locks with owner tokens: one execution at a time per (pipeline, schedule). */
public interface Locker {

    /**
     * Acquires the lock for {@code ttl}. True when it was free, expired, or already held by {@code owner} (the
     * same execution re-acquiring, which extends it); false when another owner holds an unexpired lock.
     */
    boolean acquire(LockKey key, String owner, Duration ttl);

    /** Releases the lock if {@code owner} holds it; false (and the lock untouched) otherwise. */
    boolean release(LockKey key, String owner);

    /** The current unexpired holder, for diagnostics. */
    Optional<String> holder(LockKey key);
}
