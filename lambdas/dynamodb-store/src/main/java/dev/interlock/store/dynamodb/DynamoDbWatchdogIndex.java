package dev.interlock.store.dynamodb;

import dev.interlock.model.keys.ItemKey;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.watch.PipelineWatch;
import dev.interlock.model.watch.WatchPlan;
import dev.interlock.store.DueEntry;
import dev.interlock.store.HolderCheck;
import dev.interlock.store.Page;
import dev.interlock.store.PageRequest;
import dev.interlock.store.Retention;
import dev.interlock.store.StoreException;
import dev.interlock.store.WatchdogIndex;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * The watchdog's due-time index on the table: watches ({@code PIPELINE#<id>/WATCH}, versioned), due entries
 * ({@code WATCHDOG#DUE#<UTC day>#<shard>/<dueAt>#PIPELINE#<id>}, {@code …#RUN#<id>#<runId>} or
 * {@code …#CALLBACK#<id>#<runId>}) read by a consistent
 * Query up to "now", and the checkpoint {@code WATCHDOG/CHECKPOINT}. Pipeline entries never expire (the watch points to
 * them); run and callback checks expire with the runs they check.
 */
final class DynamoDbWatchdogIndex implements WatchdogIndex {

    static final String LOW_WATER = "lowWater";
    /** Sorts before every due sort key (they start with a year). */
    private static final String FIRST_SORT_KEY = "0";

    private final SingleTable table;
    private final Retention retention;

    DynamoDbWatchdogIndex(SingleTable table, Retention retention) {
        this.table = table;
        this.retention = retention;
    }

    @Override
    public Optional<PipelineWatch> watch(String pipelineId) {
        return table.getLive(TableKeys.watch(pipelineId), CapacityIntent.WATCH_GET)
                .map(item -> ItemCodec.decode(item, PipelineWatch.class));
    }

    @Override
    public Map<String, PipelineWatch> watches(Collection<String> pipelineIds) {
        Map<String, PipelineWatch> found = new LinkedHashMap<>();
        for (Map<String, AttributeValue> item :
                table.batchGetLive(pipelineIds.stream().map(TableKeys::watch).toList(), CapacityIntent.WATCH_GET_ALL)) {
            PipelineWatch watch = ItemCodec.decode(item, PipelineWatch.class);
            found.put(watch.pipelineId(), watch);
        }
        return found;
    }

    @Override
    public PipelineWatch adopt(PipelineConfig config) {
        Optional<PipelineWatch> existing = watch(config.name());
        if (existing.isPresent()) {
            return existing.get();
        }
        PipelineWatch watch = WatchPlan.registered(config, null, table.now());
        List<TransactWriteItem> writes = new ArrayList<>();
        writes.add(table.putOf(watchItem(watch), Conditions.absent()));
        writes.addAll(moveDueEntry(null, watch));
        if (table.transact(
                        writes,
                        CapacityIntent.WATCH_ADOPT,
                        TableKeys.watch(config.name()).pk())
                .isEmpty()) {
            return watch;
        }
        // A registration wrote the watch meanwhile: theirs stands.
        return watch(config.name())
                .orElseThrow(() -> new StoreException(
                        "adopting pipeline " + config.name() + ": its watch was written and is gone again"));
    }

    @Override
    public Page<DueEntry> due(LocalDate day, int shard, Instant until, PageRequest page) {
        SingleTable.Query query = SingleTable.Query.table(TableKeys.duePartition(day, shard), null, true)
                .between(FIRST_SORT_KEY, TableKeys.dueSortKeyPrefix(until) + Character.MAX_VALUE);
        return table.documents(query, page, CapacityIntent.DUE_READ, DueEntry.class);
    }

    @Override
    public boolean advance(PipelineWatch current, PipelineWatch next) {
        List<TransactWriteItem> writes = new ArrayList<>();
        writes.add(table.putOf(watchItem(next), Conditions.versionIs(current.version())));
        writes.addAll(moveDueEntry(current, next));
        return table.transact(
                        writes,
                        CapacityIntent.WATCH_ADVANCE,
                        TableKeys.watch(current.pipelineId()).pk())
                .isEmpty();
    }

    @Override
    public void expectRunSettled(String pipelineId, String runId, Instant at) {
        table.put(runSettledItem(pipelineId, runId, at), CapacityIntent.RUN_CHECK_PUT);
    }

    /** The due entry that has the watchdog check that run {@code runId} settled by {@code at}. */
    Map<String, AttributeValue> runSettledItem(String pipelineId, String runId, Instant at) {
        DueEntry entry = new DueEntry(at, pipelineId, runId);
        Map<String, AttributeValue> item = ItemCodec.item(TableKeys.dueEntry(at, pipelineId, runId), null, entry);
        item.put(ItemCodec.TTL, ItemCodec.ttlAt(at.plus(retention.runs())));
        return item;
    }

    @Override
    public void expectJobCallback(String pipelineId, String runId, String triggerType, String jobId, Instant at) {
        DueEntry entry = new DueEntry(at, pipelineId, runId, triggerType, jobId);
        Map<String, AttributeValue> item = ItemCodec.item(entry.key(), null, entry);
        item.put(ItemCodec.TTL, ItemCodec.ttlAt(at.plus(retention.runs())));
        table.put(item, CapacityIntent.CALLBACK_CHECK_PUT);
    }

    @Override
    public void expectHolderCheck(String pipelineId, HolderCheck holder, Instant at) {
        DueEntry entry = DueEntry.holderCheck(at, pipelineId, holder);
        Map<String, AttributeValue> item = ItemCodec.item(entry.key(), null, entry);
        item.put(ItemCodec.TTL, ItemCodec.ttlAt(at.plus(retention.runs())));
        table.put(item, CapacityIntent.HOLDER_CHECK_PUT);
    }

    @Override
    public void remove(DueEntry entry) {
        table.deleteIf(entry.key(), null, CapacityIntent.DUE_REMOVE);
    }

    @Override
    public Optional<LocalDate> lowWater() {
        return table.getLive(TableKeys.watchdogCheckpoint(), CapacityIntent.CHECKPOINT_GET)
                .map(item -> ItemCodec.string(item, LOW_WATER))
                .filter(day -> day != null && !day.isBlank())
                .map(LocalDate::parse);
    }

    @Override
    public void raiseLowWater(LocalDate day) {
        // ISO dates compare as strings; a concurrent tick that recorded a later day wins, which is what both want.
        table.updateIf(
                TableKeys.watchdogCheckpoint(),
                "SET #lowWater = :day",
                SingleTable.Condition.of(
                        "attribute_not_exists(#lowWater) OR #lowWater < :day",
                        Map.of("#lowWater", LOW_WATER),
                        Map.of(":day", AttributeValue.fromS(day.toString()))),
                CapacityIntent.CHECKPOINT_RAISE);
    }

    /** The watch item: the document, and its version as the attribute conditions read. */
    Map<String, AttributeValue> watchItem(PipelineWatch watch) {
        Map<String, AttributeValue> item = ItemCodec.item(TableKeys.watch(watch.pipelineId()), null, watch);
        item.put(ItemCodec.VERSION, ItemCodec.number(watch.version()));
        item.put("pipelineId", AttributeValue.fromS(watch.pipelineId()));
        return item;
    }

    /**
     * The writes that move a pipeline's due entry from {@code from.dueAt()} to {@code to.dueAt()} (either may be null);
     * none when the entry stays where it is (one transaction cannot touch an item twice).
     */
    List<TransactWriteItem> moveDueEntry(PipelineWatch from, PipelineWatch to) {
        ItemKey old =
                from == null || from.dueAt() == null ? null : TableKeys.dueEntry(from.dueAt(), from.pipelineId(), null);
        ItemKey now = to == null || to.dueAt() == null ? null : TableKeys.dueEntry(to.dueAt(), to.pipelineId(), null);
        List<TransactWriteItem> writes = new ArrayList<>();
        if (old != null && old.equals(now)) {
            return writes;
        }
        if (old != null) {
            writes.add(table.deleteOf(old, null));
        }
        if (now != null) {
            writes.add(table.putOf(ItemCodec.item(now, null, new DueEntry(to.dueAt(), to.pipelineId(), null)), null));
        }
        return writes;
    }

    /** The stored watch, expired or not (what the version condition sees), or empty. */
    Optional<Map<String, AttributeValue>> rawWatch(String pipelineId, CapacityIntent intent) {
        return table.getRaw(TableKeys.watch(pipelineId), intent);
    }
}
