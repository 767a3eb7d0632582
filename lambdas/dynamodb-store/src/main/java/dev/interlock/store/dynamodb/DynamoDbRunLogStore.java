package dev.interlock.store.dynamodb;

import dev.interlock.model.keys.ItemKey;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.model.run.RunLog;
import dev.interlock.store.Page;
import dev.interlock.store.PageRequest;
import dev.interlock.store.Retention;
import dev.interlock.store.RunLogChange;
import dev.interlock.store.RunLogKey;
import dev.interlock.store.RunLogStore;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Run logs ({@code PIPELINE#<id>/RUNLOG#<date>#<schedule>}, listed per date via GSI1 {@code RUNLOGS#<date>}). Never
 * overwritten blindly: each update reads the entry and its {@code version}, applies the change, and writes on the
 * condition that the version is unchanged, re-reading after a concurrent write.
 */
final class DynamoDbRunLogStore implements RunLogStore {

    private final SingleTable table;
    private final Retention retention;

    DynamoDbRunLogStore(SingleTable table, Retention retention) {
        this.table = table;
        this.retention = retention;
    }

    /** A run-log write prepared from a fresh read: the item, its condition, and the entry (null = nothing to write). */
    record PreparedWrite(RunLog entry, Map<String, AttributeValue> item, SingleTable.Condition condition) {
        boolean changes() {
            return item != null;
        }
    }

    @Override
    public Optional<RunLog> get(RunLogKey key) {
        return table.getLive(itemKey(key), CapacityIntent.RUN_LOG_GET)
                .map(item -> ItemCodec.decode(item, RunLog.class));
    }

    @Override
    public Map<RunLogKey, RunLog> getAll(Collection<RunLogKey> keys) {
        Map<RunLogKey, RunLog> found = new LinkedHashMap<>();
        for (Map<String, AttributeValue> item : table.batchGetLive(
                keys.stream().map(DynamoDbRunLogStore::itemKey).toList(), CapacityIntent.RUN_LOG_GET_ALL)) {
            RunLog log = ItemCodec.decode(item, RunLog.class);
            found.put(new RunLogKey(log.pipelineId(), log.date(), log.scheduleId()), log);
        }
        return found;
    }

    @Override
    public RunLog update(RunLogKey key, RunLogChange change) {
        for (int attempt = 1; ; attempt++) {
            PreparedWrite write = prepare(key, change, CapacityIntent.RUN_LOG_UPDATE);
            if (!write.changes() || table.putIf(write.item(), write.condition(), CapacityIntent.RUN_LOG_UPDATE)) {
                return write.entry();
            }
            table.retryAfterConflict(attempt, "updating run log " + key);
        }
    }

    /** Reads the entry and applies the change; the write is conditional on nothing having changed since the read. */
    PreparedWrite prepare(RunLogKey key, RunLogChange change, CapacityIntent intent) {
        ItemKey itemKey = itemKey(key);
        Optional<Map<String, AttributeValue>> raw = table.getRaw(itemKey, intent);
        Instant now = table.now();
        Optional<RunLog> current =
                raw.filter(item -> ItemCodec.isLive(item, now)).map(item -> ItemCodec.decode(item, RunLog.class));
        RunLog next = RunLogChange.applyPreserving(key, current, change);
        if (current.isPresent() && current.get().equals(next)) {
            return new PreparedWrite(next, null, null);
        }
        long version = raw.map(ItemCodec::version).orElse(0L);
        Map<String, AttributeValue> item =
                ItemCodec.item(itemKey, TableKeys.runLogIndex(next.pipelineId(), next.date(), next.scheduleId()), next);
        item.put(ItemCodec.VERSION, ItemCodec.number(version + 1));
        item.put(ItemCodec.TTL, ItemCodec.ttlAt(now.plus(retention.runLogs())));
        return new PreparedWrite(next, item, Conditions.unchangedSince(version, raw.isPresent()));
    }

    @Override
    public Page<RunLog> listByPipeline(String pipelineId, PageRequest page) {
        return table.documents(
                SingleTable.Query.table(TableKeys.pipelinePk(pipelineId), TableKeys.RUNLOG_PREFIX, false),
                page,
                CapacityIntent.RUN_LOG_LIST,
                RunLog.class);
    }

    @Override
    public Page<RunLog> listByDate(LocalDate date, PageRequest page) {
        return table.documents(
                SingleTable.Query.index(TableKeys.runLogsByDate(date), true),
                page,
                CapacityIntent.RUN_LOG_LIST,
                RunLog.class);
    }

    private static ItemKey itemKey(RunLogKey key) {
        return TableKeys.runLog(key.pipelineId(), key.date(), key.scheduleId());
    }
}
