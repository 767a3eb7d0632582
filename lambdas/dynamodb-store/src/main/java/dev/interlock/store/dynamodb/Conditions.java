package dev.interlock.store.dynamodb;

import static dev.interlock.store.dynamodb.ItemCodec.PK;
import static dev.interlock.store.dynamodb.ItemCodec.TTL;
import static dev.interlock.store.dynamodb.ItemCodec.VERSION;

import dev.interlock.store.dynamodb.SingleTable.Condition;
import java.time.Instant;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The condition expressions the stores write with, spelt once. */
final class Conditions {

    private Conditions() {}

    /** No item with this key exists, expired or not (markers, run creation). */
    static Condition absent() {
        return Condition.of("attribute_not_exists(#pk)", Map.of("#pk", PK), Map.of());
    }

    /** The item still has the version it had when read (optimistic read-modify-write). */
    static Condition versionIs(long expected) {
        return Condition.of(
                "#version = :expected", Map.of("#version", VERSION), Map.of(":expected", ItemCodec.number(expected)));
    }

    /** The version read before, or absence when nothing was there. */
    static Condition unchangedSince(long versionRead, boolean existed) {
        return existed ? versionIs(versionRead) : absent();
    }

    /** The item is live and still at {@code expected} (run-state CAS). */
    static Condition liveAtVersion(long expected, Instant now) {
        return Condition.of(
                "#version = :expected AND (attribute_not_exists(#ttl) OR #ttl > :now)",
                Map.of("#version", VERSION, "#ttl", TTL),
                Map.of(":expected", ItemCodec.number(expected), ":now", ItemCodec.number(now.getEpochSecond())));
    }

    /** Free, expired, or already held by {@code owner} (lock acquisition). */
    static Condition lockAvailableTo(String owner, Instant now) {
        return Condition.of(
                "attribute_not_exists(#pk) OR #ttl <= :now OR #owner = :owner",
                Map.of("#pk", PK, "#ttl", TTL, "#owner", DynamoDbLocker.OWNER),
                Map.of(":now", ItemCodec.number(now.getEpochSecond()), ":owner", AttributeValue.fromS(owner)));
    }

    /**
     * Held by {@code owner} and not expired: a holder's progress report must not revive a lock it lost, and a fenced
     * write (trigger claim, run creation, run log) is refused to a holder that lost it.
     */
    static Condition liveAndHeldBy(String owner, Instant now) {
        return Condition.of(
                "#owner = :owner AND #ttl > :now",
                Map.of("#owner", DynamoDbLocker.OWNER, "#ttl", TTL),
                Map.of(":owner", AttributeValue.fromS(owner), ":now", ItemCodec.number(now.getEpochSecond())));
    }

    /**
     * An alert claim is free to take: no dedup item (or an expired one), or an unsent claim that is the claimant's own
     * (a retried call) or whose lease is over. Items without a state were written as sent.
     */
    static Condition alertClaimable(String claimant, Instant now) {
        return Condition.of(
                "attribute_not_exists(#pk) OR #ttl <= :now OR (#state = :claimed AND (#claimant = :claimant "
                        + "OR #leaseUntil <= :now))",
                Map.of(
                        "#pk",
                        PK,
                        "#ttl",
                        TTL,
                        "#state",
                        DynamoDbAlertLedger.STATE,
                        "#claimant",
                        DynamoDbAlertLedger.CLAIMANT,
                        "#leaseUntil",
                        DynamoDbAlertLedger.LEASE_UNTIL),
                Map.of(
                        ":now",
                        ItemCodec.number(now.getEpochSecond()),
                        ":claimed",
                        AttributeValue.fromS(DynamoDbAlertLedger.CLAIMED),
                        ":claimant",
                        AttributeValue.fromS(claimant)));
    }

    /** {@code claimant}'s own unsent claim (an alert claim given back). */
    static Condition unsentClaimOf(String claimant) {
        return Condition.of(
                "#state = :claimed AND #claimant = :claimant",
                Map.of("#state", DynamoDbAlertLedger.STATE, "#claimant", DynamoDbAlertLedger.CLAIMANT),
                Map.of(
                        ":claimed",
                        AttributeValue.fromS(DynamoDbAlertLedger.CLAIMED),
                        ":claimant",
                        AttributeValue.fromS(claimant)));
    }

    /** The item exists (an update that must not create one). */
    static Condition exists() {
        return Condition.of("attribute_exists(#pk)", Map.of("#pk", PK), Map.of());
    }

    /** Held by {@code owner} (lock release). */
    static Condition heldBy(String owner) {
        return Condition.of(
                "#owner = :owner",
                Map.of("#owner", DynamoDbLocker.OWNER),
                Map.of(":owner", AttributeValue.fromS(owner)));
    }
}
