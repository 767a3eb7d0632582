package dev.interlock.store;

import java.time.Instant;
import java.util.Objects;

/**
 * Who holds an evaluation lock and what the holder told the lock about its progress.
 *
 * @param expiresAt       when the lock expires by itself (its TTL), whether or not the holder is still alive
 * @param nextRoundBy     while the holder waits on NOT READY: the latest time its next evaluation round starts; null
 *                        once it left evaluation (ready, exhausted) or never reported one
 * @param evaluatingUntil the holder's validation deadline (it gives up being NOT READY then); null like nextRoundBy
 * @param absorbed        markers absorbed by this holder: work it promised to do by re-evaluating
 */
public record LockHolder(
        String owner,
        Instant acquiredAt,
        Instant expiresAt,
        Instant nextRoundBy,
        Instant evaluatingUntil,
        int absorbed) {

    public LockHolder {
        Objects.requireNonNull(owner, "owner");
    }

    /**
     * Whether the holder will evaluate the day again after {@code now}: it is waiting on NOT READY, its next round is
     * not overdue (a dead holder stops reporting rounds, so this turns false one round after it died), and that round
     * comes before its deadline, so it is not its last. Only then may a marker's evaluation be absorbed by it.
     */
    public boolean evaluatesAgainAfter(Instant now) {
        return nextRoundBy != null
                && evaluatingUntil != null
                && now.isBefore(nextRoundBy)
                && !nextRoundBy.isAfter(evaluatingUntil);
    }
}
