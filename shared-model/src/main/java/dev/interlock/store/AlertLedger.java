package dev.interlock.store;

/** Remembers which alerts were sent so each (kind, pipeline, date, schedule) is sent once. */
public interface AlertLedger {

    /**
     * Claims the right to send the alert: true exactly once per key (until the dedup item expires), false when it
     * was already claimed. Claim before publishing; {@link #release} when publishing failed.
     */
    boolean claim(AlertKey key);

    /** Gives a claim back so a later attempt can send the alert (the publish failed). */
    void release(AlertKey key);
}
