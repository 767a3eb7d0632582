package dev.interlock.store;

import java.time.Instant;

/**
 * The one rule for the {@code ttl} attribute (epoch seconds) both Providers follow: an expiry instant is rounded UP
 * to a whole second (an item never disappears early, e.g. a lock), and an item whose ttl is at or before the
 * current second reads as absent, because DynamoDB deletes expired items only eventually (DynamoDB Local never).
 */
public final class TimeToLive {

    private TimeToLive() {}

    /** The {@code ttl} attribute value for an item that expires at {@code expiresAt}. */
    public static long epochSecondsOf(Instant expiresAt) {
        long seconds = expiresAt.getEpochSecond();
        return expiresAt.getNano() == 0 ? seconds : seconds + 1;
    }

    /** Whether an item with this {@code ttl} value reads as absent at {@code now}. */
    public static boolean isExpired(long ttlEpochSeconds, Instant now) {
        return ttlEpochSeconds <= now.getEpochSecond();
    }
}
