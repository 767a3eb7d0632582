package dev.interlock.deps.dynamodb;

import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.keys.ItemKey;
import dev.interlock.model.keys.LockKey;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.store.Locker;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * Evaluation locks ({@code LOCK#eval:<pipeline>:<schedule>/LOCK}) with an owner token: acquired by a conditional put
 * (free, expired, or ours), released by a delete conditional on the owner, so an execution whose lock expired can never
 * release the lock a later execution holds.
 */
final class DynamoDbLocker implements Locker {

    static final String OWNER = "owner";

    private final SingleTable table;

    DynamoDbLocker(SingleTable table) {
        this.table = table;
    }

    @Override
    public boolean acquire(LockKey key, String owner, Duration ttl) {
        requireOwner(owner);
        if (ttl == null || ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("lock ttl must be positive: " + ttl);
        }
        Instant now = table.now();
        ItemKey itemKey = TableKeys.lock(key);
        Map<String, AttributeValue> item = ItemCodec.item(itemKey, null, null);
        item.put(OWNER, AttributeValue.fromS(owner));
        item.put("acquiredAt", AttributeValue.fromS(InterlockJson.timestamp(now)));
        item.put(ItemCodec.TTL, ItemCodec.ttlAt(now.plus(ttl)));
        return table.putIf(item, Conditions.lockAvailableTo(owner, now), CapacityIntent.LOCK_ACQUIRE);
    }

    @Override
    public boolean release(LockKey key, String owner) {
        requireOwner(owner);
        return table.deleteIf(TableKeys.lock(key), Conditions.heldBy(owner), CapacityIntent.LOCK_RELEASE);
    }

    @Override
    public Optional<String> holder(LockKey key) {
        return table.getLive(TableKeys.lock(key), CapacityIntent.LOCK_HOLDER).map(item -> ItemCodec.string(item, OWNER));
    }

    private static void requireOwner(String owner) {
        if (owner == null || owner.isBlank()) {
            throw new IllegalArgumentException("lock owner is required");
        }
    }
}
