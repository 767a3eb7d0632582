package dev.interlock.store.dynamodb;

import dev.interlock.model.keys.ItemKey;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.store.AlertKey;
import dev.interlock.store.AlertLedger;
import dev.interlock.store.Retention;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Alert dedup items ({@code ALERT#<kind>#<pipeline>#<date>#<schedule>/SENT}): a conditional put claims the alert with a
 * short lease ({@code state} CLAIMED, {@code claimant}, {@code leaseUntil}); marking it sent ({@code state} SENT) makes
 * it final until the item's TTL. Items written before leases existed carry no state and read as sent.
 */
final class DynamoDbAlertLedger implements AlertLedger {

    static final String STATE = "state";
    static final String CLAIMANT = "claimant";
    static final String LEASE_UNTIL = "leaseUntil";
    static final String CLAIMED = "CLAIMED";
    static final String SENT = "SENT";

    private final SingleTable table;
    private final Retention retention;

    DynamoDbAlertLedger(SingleTable table, Retention retention) {
        this.table = table;
        this.retention = retention;
    }

    @Override
    public boolean claim(AlertKey key, String claimant, Duration lease) {
        requireClaimant(claimant);
        Instant now = table.now();
        Map<String, AttributeValue> item = ItemCodec.item(itemKey(key), null, key);
        item.put(STATE, AttributeValue.fromS(CLAIMED));
        item.put(CLAIMANT, AttributeValue.fromS(claimant));
        item.put(LEASE_UNTIL, ItemCodec.number(now.plus(lease).getEpochSecond()));
        item.put(ItemCodec.TTL, ItemCodec.ttlAt(now.plus(retention.alertDedup())));
        return table.putIf(item, Conditions.alertClaimable(claimant, now), CapacityIntent.ALERT_CLAIM);
    }

    @Override
    public void markSent(AlertKey key, String claimant) {
        requireClaimant(claimant);
        table.updateIf(
                itemKey(key),
                "SET #state = :sent, #claimant = :claimant REMOVE #leaseUntil",
                Conditions.exists()
                        .with(
                                Map.of("#state", STATE, "#claimant", CLAIMANT, "#leaseUntil", LEASE_UNTIL),
                                Map.of(
                                        ":sent",
                                        AttributeValue.fromS(SENT),
                                        ":claimant",
                                        AttributeValue.fromS(claimant))),
                CapacityIntent.ALERT_SENT);
    }

    @Override
    public void release(AlertKey key, String claimant) {
        requireClaimant(claimant);
        table.deleteIf(itemKey(key), Conditions.unsentClaimOf(claimant), CapacityIntent.ALERT_RELEASE);
    }

    private static ItemKey itemKey(AlertKey key) {
        return TableKeys.alertDedup(key.kind(), key.pipelineId(), key.date(), key.scheduleId());
    }

    private static void requireClaimant(String claimant) {
        if (claimant == null || claimant.isBlank()) {
            throw new IllegalArgumentException("alert claimant is required");
        }
    }
}
