package dev.interlock.store.dynamodb;

import dev.interlock.model.backfill.Backfill;
import dev.interlock.model.event.Event;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.store.BackfillStore;
import dev.interlock.store.Retention;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * Backfills: {@code BACKFILL#<id>/BACKFILL}, listed via GSI1 {@code TYPE#backfill} by request time, each write
 * conditional on the version it was made from; and {@code BACKFILLS/ACTIVE#<id>}, the pointer that keeps a backfill in
 * the watchdog's view until it ended and alerted. An ended, alerted backfill lives as long as reruns.
 */
final class DynamoDbBackfillStore implements BackfillStore {

    private final SingleTable table;
    private final DynamoDbEventStore events;
    private final Retention retention;

    DynamoDbBackfillStore(SingleTable table, DynamoDbEventStore events, Retention retention) {
        this.table = table;
        this.events = events;
        this.retention = retention;
    }

    @Override
    public boolean create(Backfill backfill, Event requested) {
        Objects.requireNonNull(requested, "requested");
        for (int attempt = 1; ; attempt++) {
            List<TransactWriteItem> writes = new ArrayList<>();
            writes.add(table.putOf(item(backfill), Conditions.absent()));
            writes.add(table.putOf(ItemCodec.item(TableKeys.activeBackfill(backfill.backfillId()), null, null), null));
            writes.add(table.putOf(events.item(requested), Conditions.absent()));
            Optional<List<CancellationReason>> cancelled =
                    table.transact(writes, CapacityIntent.BACKFILL_WRITE, "BACKFILL#" + backfill.backfillId());
            if (cancelled.isEmpty()) {
                return true;
            }
            if (SingleTable.conditionFailedAt(cancelled.get(), 0)) {
                return false;
            }
            table.retryAfterConflict(attempt, "backfill " + backfill.backfillId() + " (event key taken)");
        }
    }

    @Override
    public Optional<Backfill> get(String backfillId) {
        return table.getLive(TableKeys.backfill(backfillId), CapacityIntent.BACKFILL_GET)
                .map(item -> ItemCodec.decode(item, Backfill.class));
    }

    @Override
    public List<Backfill> list(String pipelineId) {
        return table
                .allDocuments(
                        SingleTable.Query.index(TableKeys.BACKFILL_TYPE, false),
                        CapacityIntent.BACKFILL_LIST,
                        Backfill.class)
                .stream()
                .filter(b -> pipelineId == null || pipelineId.equals(b.pipelineId()))
                .toList();
    }

    @Override
    public List<Backfill> active() {
        List<Map<String, AttributeValue>> pointers = table.queryAll(
                SingleTable.Query.table(TableKeys.ACTIVE_BACKFILLS_PK, TableKeys.ACTIVE_BACKFILL_PREFIX, true),
                CapacityIntent.BACKFILL_LIST);
        List<Backfill> active = new ArrayList<>();
        for (Map<String, AttributeValue> pointer : pointers) {
            String id = ItemCodec.string(pointer, ItemCodec.SK).substring(TableKeys.ACTIVE_BACKFILL_PREFIX.length());
            get(id).ifPresent(active::add);
        }
        active.sort(Comparator.comparing(Backfill::requestedAt));
        return active;
    }

    @Override
    public boolean replace(Backfill read, Backfill next, List<Event> nextEvents) {
        for (int attempt = 1; ; attempt++) {
            List<TransactWriteItem> writes = new ArrayList<>();
            writes.add(put(read, next));
            if (next.alerted()) {
                writes.add(table.deleteOf(TableKeys.activeBackfill(next.backfillId()), null));
            }
            for (Event event : nextEvents) {
                writes.add(table.putOf(events.item(event), Conditions.absent()));
            }
            Optional<List<CancellationReason>> cancelled =
                    table.transact(writes, CapacityIntent.BACKFILL_WRITE, "BACKFILL#" + next.backfillId());
            if (cancelled.isEmpty()) {
                return true;
            }
            if (SingleTable.conditionFailedAt(cancelled.get(), 0)) {
                return false;
            }
            table.retryAfterConflict(attempt, "backfill " + next.backfillId() + " (event key taken)");
        }
    }

    /** The write of {@code next} as the version after {@code read}'s, only over it: the first item of each move. */
    TransactWriteItem put(Backfill read, Backfill next) {
        return table.putOf(item(next.atVersion(read.version() + 1)), Conditions.versionIs(read.version()));
    }

    private Map<String, AttributeValue> item(Backfill backfill) {
        Map<String, AttributeValue> item = ItemCodec.item(
                TableKeys.backfill(backfill.backfillId()),
                TableKeys.backfillIndex(backfill.requestedAt(), backfill.backfillId()),
                backfill);
        item.put(ItemCodec.VERSION, ItemCodec.number(backfill.version()));
        if (backfill.alerted()) {
            item.put(ItemCodec.TTL, ItemCodec.ttlAt(table.now().plus(retention.reruns())));
        }
        return item;
    }
}
