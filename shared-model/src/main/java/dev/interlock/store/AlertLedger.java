package dev.interlock.store;

import java.time.Duration;

/**
 * Remembers which alerts were sent so each (kind, pipeline, date, schedule) is sent once. A claim is a short lease
 * until the claimant marks the alert sent: a claimant that dies between claiming and publishing leaves a claim that
 * the same claimant (a retried call) may take again at once and anyone may take once the lease is over.
 */
public interface AlertLedger {

    /**
     * Claims the right to send the alert for {@code lease}: true when no claim exists (or only an expired dedup item),
     * when the alert is claimed but not sent by {@code claimant} itself, or when another claimant's lease is over;
     * false when it was sent, or another claimant's lease still runs. Claim before publishing, then {@link #markSent}
     * or {@link #release}.
     */
    boolean claim(AlertKey key, String claimant, Duration lease);

    /** Records the alert as sent: no claim succeeds any more until the dedup item expires. */
    void markSent(AlertKey key, String claimant);

    /** Gives back {@code claimant}'s unsent claim at once (the publish failed) so a later attempt sends the alert. */
    void release(AlertKey key, String claimant);
}
