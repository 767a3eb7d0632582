package dev.interlock.store;

import dev.interlock.model.keys.LockKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;

/** Evaluation locks with owner tokens: one execution at a time per (pipeline, schedule, date). */
public interface Locker {

    /**
     * Acquires the lock for {@code ttl}. True when it was free, expired, or already held by {@code owner} (the
     * same execution re-acquiring, which extends it); false when another owner holds an unexpired lock.
     */
    boolean acquire(LockKey key, String owner, Duration ttl);

    /**
     * Acquires like {@link #acquire(LockKey, String, Duration)}, recording on the lock the ARN of the owner's execution
     * and, in the same write, the watchdog's holder check of it due at {@code checkAt} ({@link HolderCheck}), so a holder
     * that ends without its execution-end event reaching Interlock never keeps the lock until its TTL. Nothing is
     * written when the lock is refused.
     */
    boolean acquire(LockKey key, String owner, Duration ttl, String executionArn, Instant checkAt);

    /** Releases the lock if {@code owner} holds it; false (and the lock untouched) otherwise. */
    boolean release(LockKey key, String owner);

    /**
     * Releases the lock if {@code owner} holds it (expired or not) and answers the holder as it was, with the markers it
     * had absorbed; empty (and the lock untouched) when {@code owner} does not hold it. For the release of a holder known
     * to have ended, whose absorbed work must be handed on.
     */
    Optional<LockHolder> releaseHeldBy(LockKey key, String owner);

    /** The current unexpired holder and its reported progress. */
    Optional<LockHolder> holder(LockKey key);

    /**
     * The current unexpired holders of {@code keys}, by key (a free lock is absent): one BatchGetItem per 100 keys on
     * DynamoDB, where {@link #holder} per key costs a request each.
     */
    Map<LockKey, LockHolder> holders(Collection<LockKey> keys);

    /**
     * The holder reports that it waits on NOT READY and starts its next round by {@code nextRoundBy}, until
     * {@code evaluatingUntil}; both null: it left evaluation. Only {@code owner}'s unexpired lock is changed; false
     * when {@code owner} does not hold it.
     */
    boolean recordEvaluating(LockKey key, String owner, Instant nextRoundBy, Instant evaluatingUntil);

    /**
     * Passes {@code from}'s live lock to {@code to} for {@code ttl} from now, keeping the progress {@code from} reported
     * (its next round and deadline, so markers meeting the lock in between are still absorbed): the hand-over of a wait
     * to a successor execution, with no moment at which the lock is free for another execution. True also when
     * {@code to} holds the lock already (a repeated call); false (the lock untouched) otherwise.
     */
    boolean handOver(LockKey key, String from, String to, Duration ttl);

    /** Counts one marker absorbed by {@code holder}; false (nothing counted) when {@code holder} no longer holds the lock. */
    boolean recordAbsorbed(LockKey key, String holder);

    /**
     * Deletes the lock whoever holds it (the operator's release of a lock whose holder died). Answers the holder it
     * had if the lock was live; an expired leftover is deleted too and answers empty.
     */
    Optional<LockHolder> forceRelease(LockKey key);
}
