package dev.interlock.deps.dynamodb;

import dev.interlock.model.keys.ItemKey;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.store.AlertKey;
import dev.interlock.store.AlertLedger;
import dev.interlock.store.Retention;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.Map;

/** Alert dedup items ({@code ALERT#<kind>#<pipeline>#<date>#<schedule>/SENT}), claimed with a conditional put. */
final class DynamoDbAlertLedger implements AlertLedger {

    private final SingleTable table;
    private final Retention retention;

    DynamoDbAlertLedger(SingleTable table, Retention retention) {
        this.table = table;
        this.retention = retention;
    }

    @Override
    public boolean claim(AlertKey key) {
        Instant now = table.now();
        Map<String, AttributeValue> item = ItemCodec.item(itemKey(key), null, key);
        item.put(ItemCodec.TTL, ItemCodec.ttlAt(now.plus(retention.alertDedup())));
        return table.putIf(item, Conditions.absentOrExpired(now), CapacityIntent.ALERT_CLAIM);
    }

    @Override
    public void release(AlertKey key) {
        table.deleteIf(itemKey(key), null, CapacityIntent.ALERT_RELEASE);
    }

    private static ItemKey itemKey(AlertKey key) {
        return TableKeys.alertDedup(key.kind(), key.pipelineId(), key.date(), key.scheduleId());
    }
}
