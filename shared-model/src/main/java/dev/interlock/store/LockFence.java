package dev.interlock.store;

import dev.interlock.model.keys.LockKey;
import java.util.Objects;

/**
 * The lock a write is fenced by: the write is applied only while {@code owner} still holds the (unexpired) lock of
 * {@code key}, checked in the same conditional write, so a holder whose lock was released by an operator, expired or
 * was taken over can never trigger, record a run or write the day's run log (a {@link LockLostException} instead).
 * The owner is the execution name, which Step Functions never gives to a second execution of the machine, and an
 * execution acquires the lock once, before its first fenced write: the owner is the fencing token.
 */
public record LockFence(LockKey key, String owner) {

    public LockFence {
        Objects.requireNonNull(key, "key");
        if (owner == null || owner.isBlank()) {
            throw new IllegalArgumentException("a lock fence needs the owner (the execution name)");
        }
    }

    /** The refusal of a write this fence failed. */
    public LockLostException lost(String write) {
        return new LockLostException(this, write);
    }
}
