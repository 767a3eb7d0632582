package dev.interlock.store.dynamodb;

import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.keys.ItemKey;
import dev.interlock.model.keys.LockKey;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.store.DueEntry;
import dev.interlock.store.HolderCheck;
import dev.interlock.store.LockFence;
import dev.interlock.store.LockHolder;
import dev.interlock.store.Locker;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * Evaluation locks ({@code LOCK#eval:<pipeline>:<schedule>:<date>/LOCK}) with an owner token: acquired by a conditional
 * put (free, expired, or ours), released by a delete conditional on the owner, so an execution whose lock expired can
 * never release the lock a later execution holds. The holder's progress reports are updates conditional on the owner
 * and on the lock still being live, so a dead holder's late report cannot revive it.
 */
final class DynamoDbLocker implements Locker {

    static final String OWNER = "owner";
    static final String ACQUIRED_AT = "acquiredAt";
    /** The ARN of the holder's execution, when its acquireLock call sent one. */
    static final String EXECUTION_ARN = "executionArn";

    static final String NEXT_ROUND_BY = "nextRoundBy";
    static final String EVALUATING_UNTIL = "evaluatingUntil";
    static final String ABSORBED = "absorbed";

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
        item.put(ACQUIRED_AT, AttributeValue.fromS(InterlockJson.timestamp(now)));
        item.put(ItemCodec.TTL, ItemCodec.ttlAt(now.plus(ttl)));
        return table.putIf(item, Conditions.lockAvailableTo(owner, now), CapacityIntent.LOCK_ACQUIRE);
    }

    @Override
    public boolean acquire(LockKey key, String owner, Duration ttl, String executionArn, Instant checkAt) {
        if (executionArn == null || checkAt == null) {
            return acquire(key, owner, ttl);
        }
        requireOwner(owner);
        if (ttl == null || ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("lock ttl must be positive: " + ttl);
        }
        Instant now = table.now();
        Map<String, AttributeValue> lock = ItemCodec.item(TableKeys.lock(key), null, null);
        lock.put(OWNER, AttributeValue.fromS(owner));
        lock.put(ACQUIRED_AT, AttributeValue.fromS(InterlockJson.timestamp(now)));
        lock.put(EXECUTION_ARN, AttributeValue.fromS(executionArn));
        lock.put(ItemCodec.TTL, ItemCodec.ttlAt(now.plus(ttl)));
        DueEntry entry = DueEntry.holderCheck(
                checkAt, key.pipelineId(), new HolderCheck(key.scheduleId(), key.date(), owner, executionArn));
        Map<String, AttributeValue> check = ItemCodec.item(entry.key(), null, entry);
        // The check outlives the lock's TTL by a day: after that nobody holds the lock and the entry is moot.
        check.put(ItemCodec.TTL, ItemCodec.ttlAt(now.plus(ttl).plus(Duration.ofDays(1))));
        return table.transact(
                        List.of(table.putOf(lock, Conditions.lockAvailableTo(owner, now)), table.putOf(check, null)),
                        CapacityIntent.LOCK_ACQUIRE_WATCHED,
                        key.value())
                .isEmpty();
    }

    @Override
    public boolean release(LockKey key, String owner) {
        requireOwner(owner);
        return table.deleteIf(TableKeys.lock(key), Conditions.heldBy(owner), CapacityIntent.LOCK_RELEASE);
    }

    @Override
    public Optional<LockHolder> releaseHeldBy(LockKey key, String owner) {
        requireOwner(owner);
        return table.deleteIfReturningOld(TableKeys.lock(key), Conditions.heldBy(owner), CapacityIntent.LOCK_RELEASE)
                .filter(old -> !old.isEmpty())
                .map(DynamoDbLocker::holderOf);
    }

    @Override
    public Optional<LockHolder> holder(LockKey key) {
        return table.getLive(TableKeys.lock(key), CapacityIntent.LOCK_HOLDER).map(DynamoDbLocker::holderOf);
    }

    @Override
    public Map<LockKey, LockHolder> holders(Collection<LockKey> keys) {
        Map<String, LockKey> byPk = new HashMap<>();
        keys.forEach(k -> byPk.put(TableKeys.lock(k).pk(), k));
        Map<LockKey, LockHolder> held = new LinkedHashMap<>();
        for (Map<String, AttributeValue> item :
                table.batchGetLive(keys.stream().map(TableKeys::lock).toList(), CapacityIntent.LOCK_HOLDERS)) {
            held.put(byPk.get(ItemCodec.string(item, ItemCodec.PK)), holderOf(item));
        }
        return held;
    }

    @Override
    public boolean recordEvaluating(LockKey key, String owner, Instant nextRoundBy, Instant evaluatingUntil) {
        requireOwner(owner);
        if (nextRoundBy == null || evaluatingUntil == null) {
            return table.updateIf(
                    TableKeys.lock(key),
                    "REMOVE #next, #until",
                    Conditions.liveAndHeldBy(owner, table.now())
                            .with(Map.of("#next", NEXT_ROUND_BY, "#until", EVALUATING_UNTIL), Map.of()),
                    CapacityIntent.LOCK_PROGRESS);
        }
        return table.updateIf(
                TableKeys.lock(key),
                "SET #next = :next, #until = :until",
                Conditions.liveAndHeldBy(owner, table.now())
                        .with(
                                Map.of("#next", NEXT_ROUND_BY, "#until", EVALUATING_UNTIL),
                                Map.of(
                                        ":next",
                                        AttributeValue.fromS(InterlockJson.timestamp(nextRoundBy)),
                                        ":until",
                                        AttributeValue.fromS(InterlockJson.timestamp(evaluatingUntil)))),
                CapacityIntent.LOCK_PROGRESS);
    }

    @Override
    public boolean handOver(LockKey key, String from, String to, Duration ttl) {
        requireOwner(from);
        requireOwner(to);
        Instant now = table.now();
        boolean passed = table.updateIf(
                TableKeys.lock(key),
                "SET #owner = :to, #acquired = :at, #ttl = :ttl",
                Conditions.liveAndHeldBy(from, now)
                        .with(
                                Map.of("#acquired", ACQUIRED_AT),
                                Map.of(
                                        ":to",
                                        AttributeValue.fromS(to),
                                        ":at",
                                        AttributeValue.fromS(InterlockJson.timestamp(now)),
                                        ":ttl",
                                        ItemCodec.ttlAt(now.plus(ttl)))),
                CapacityIntent.LOCK_HAND_OVER);
        return passed || holder(key).filter(h -> to.equals(h.owner())).isPresent();
    }

    @Override
    public boolean recordAbsorbed(LockKey key, String holder) {
        requireOwner(holder);
        return table.updateIf(
                TableKeys.lock(key),
                "ADD #absorbed :one",
                Conditions.liveAndHeldBy(holder, table.now())
                        .with(Map.of("#absorbed", ABSORBED), Map.of(":one", ItemCodec.number(1))),
                CapacityIntent.LOCK_PROGRESS);
    }

    /** The check, in a transaction, that the fence's owner still holds its unexpired lock. */
    TransactWriteItem fenceCheck(LockFence fence) {
        return table.conditionCheckOf(
                TableKeys.lock(fence.key()), Conditions.liveAndHeldBy(fence.owner(), table.now()));
    }

    @Override
    public Optional<LockHolder> forceRelease(LockKey key) {
        Instant now = table.now();
        return table.deleteReturningOld(TableKeys.lock(key), CapacityIntent.LOCK_FORCE_RELEASE)
                .filter(old -> ItemCodec.isLive(old, now) && ItemCodec.string(old, OWNER) != null)
                .map(DynamoDbLocker::holderOf);
    }

    private static LockHolder holderOf(Map<String, AttributeValue> item) {
        AttributeValue ttl = item.get(ItemCodec.TTL);
        AttributeValue absorbed = item.get(ABSORBED);
        return new LockHolder(
                ItemCodec.string(item, OWNER),
                instant(item, ACQUIRED_AT),
                ttl == null || ttl.n() == null ? null : Instant.ofEpochSecond(Long.parseLong(ttl.n())),
                instant(item, NEXT_ROUND_BY),
                instant(item, EVALUATING_UNTIL),
                absorbed == null || absorbed.n() == null ? 0 : Integer.parseInt(absorbed.n()));
    }

    private static Instant instant(Map<String, AttributeValue> item, String attribute) {
        String text = ItemCodec.string(item, attribute);
        return text == null ? null : Instant.parse(text);
    }

    private static void requireOwner(String owner) {
        if (owner == null || owner.isBlank()) {
            throw new IllegalArgumentException("lock owner is required");
        }
    }
}
