package dev.interlock.deps.dynamodb;

import dev.interlock.model.keys.ItemKey;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.watch.PipelineWatch;
import dev.interlock.model.watch.WatchPlan;
import dev.interlock.store.Page;
import dev.interlock.store.PageRequest;
import dev.interlock.store.PipelineStore;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Pipeline configs ({@code PIPELINE#<id>/CONFIG}, listed via GSI1 {@code TYPE#pipeline}) and, written in the same
 * transaction, the downstream index entries {@code PIPELINE#<upstream>/DOWNSTREAM#<id>} and the pipeline's watchdog
 * watch with its due entry. Configs and watches carry a {@code version} so concurrent registrations (or a watchdog
 * tick) cannot leave the indexes disagreeing with the config.
 */
final class DynamoDbPipelineStore implements PipelineStore {

    /** TransactWriteItems takes at most 100 items: the config, its watch and due entry, and its index changes. */
    private static final int MAX_TRANSACTION_ITEMS = 100;

    private final SingleTable table;
    private final DynamoDbWatchdogIndex watchdog;

    DynamoDbPipelineStore(SingleTable table, DynamoDbWatchdogIndex watchdog) {
        this.table = table;
        this.watchdog = watchdog;
    }

    @Override
    public boolean put(PipelineConfig config) {
        ItemKey key = TableKeys.pipeline(config.name());
        for (int attempt = 1; ; attempt++) {
            Optional<Map<String, AttributeValue>> raw = table.getRaw(key, CapacityIntent.PIPELINE_PUT);
            Instant now = table.now();
            Optional<Map<String, AttributeValue>> live = raw.filter(item -> ItemCodec.isLive(item, now));
            Set<String> before = live.map(item -> ItemCodec.decode(item, PipelineConfig.class).upstreamPipelines()).orElse(Set.of());
            Set<String> after = config.upstreamPipelines();
            long version = raw.map(ItemCodec::version).orElse(0L);
            Optional<Map<String, AttributeValue>> rawWatch = watchdog.rawWatch(config.name(), CapacityIntent.PIPELINE_PUT);
            PipelineWatch previous = rawWatch.map(w -> ItemCodec.decode(w, PipelineWatch.class)).orElse(null);
            PipelineWatch watch = WatchPlan.registered(config, previous, now);

            Map<String, AttributeValue> item = ItemCodec.item(key, TableKeys.pipelineIndex(config.name()), config);
            item.put(ItemCodec.VERSION, ItemCodec.number(version + 1));
            List<TransactWriteItem> writes = new ArrayList<>();
            writes.add(table.putOf(item, Conditions.unchangedSince(version, raw.isPresent())));
            writes.add(table.putOf(watchdog.watchItem(watch),
                    Conditions.unchangedSince(rawWatch.map(ItemCodec::version).orElse(0L), rawWatch.isPresent())));
            writes.addAll(watchdog.moveDueEntry(previous, watch));
            for (String upstream : after) {
                writes.add(table.putOf(indexEntry(upstream, config.name()), null));
            }
            for (String gone : before) {
                if (!after.contains(gone)) {
                    writes.add(table.deleteOf(TableKeys.downstream(gone, config.name()), null));
                }
            }
            if (writes.size() > MAX_TRANSACTION_ITEMS) {
                throw new IllegalArgumentException("pipeline " + config.name() + " names " + after.size()
                        + " upstream pipelines; at most " + (MAX_TRANSACTION_ITEMS - 4 - before.size()) + " fit one registration");
            }
            Optional<List<CancellationReason>> cancelled = table.transact(writes, CapacityIntent.PIPELINE_PUT, key.pk());
            if (cancelled.isEmpty()) {
                return live.isEmpty();
            }
            table.retryAfterConflict(attempt, "registering pipeline " + config.name());
        }
    }

    @Override
    public Optional<PipelineConfig> get(String pipelineId) {
        return table.getLive(TableKeys.pipeline(pipelineId), CapacityIntent.PIPELINE_GET)
                .map(item -> ItemCodec.decode(item, PipelineConfig.class));
    }

    @Override
    public Map<String, PipelineConfig> getAll(Collection<String> pipelineIds) {
        Map<String, PipelineConfig> found = new TreeMap<>();
        for (Map<String, AttributeValue> item : table.batchGetLive(
                pipelineIds.stream().map(TableKeys::pipeline).toList(), CapacityIntent.PIPELINE_GET_ALL)) {
            PipelineConfig config = ItemCodec.decode(item, PipelineConfig.class);
            found.put(config.name(), config);
        }
        return found;
    }

    @Override
    public boolean delete(String pipelineId) {
        ItemKey key = TableKeys.pipeline(pipelineId);
        for (int attempt = 1; ; attempt++) {
            Optional<Map<String, AttributeValue>> raw = table.getRaw(key, CapacityIntent.PIPELINE_DELETE);
            Instant now = table.now();
            if (raw.filter(item -> ItemCodec.isLive(item, now)).isEmpty()) {
                return false;
            }
            List<TransactWriteItem> writes = new ArrayList<>();
            writes.add(table.deleteOf(key, Conditions.versionIs(ItemCodec.version(raw.get()))));
            for (String upstream : ItemCodec.decode(raw.get(), PipelineConfig.class).upstreamPipelines()) {
                writes.add(table.deleteOf(TableKeys.downstream(upstream, pipelineId), null));
            }
            Optional<Map<String, AttributeValue>> rawWatch = watchdog.rawWatch(pipelineId, CapacityIntent.PIPELINE_DELETE);
            if (rawWatch.isPresent()) {
                writes.add(table.deleteOf(TableKeys.watch(pipelineId), Conditions.versionIs(ItemCodec.version(rawWatch.get()))));
                writes.addAll(watchdog.moveDueEntry(ItemCodec.decode(rawWatch.get(), PipelineWatch.class), null));
            }
            if (table.transact(writes, CapacityIntent.PIPELINE_DELETE, key.pk()).isEmpty()) {
                return true;
            }
            table.retryAfterConflict(attempt, "deleting pipeline " + pipelineId);
        }
    }

    @Override
    public Page<PipelineConfig> list(PageRequest page) {
        return table.documents(SingleTable.Query.index(TableKeys.PIPELINE_TYPE, true), page, CapacityIntent.PIPELINE_LIST,
                PipelineConfig.class);
    }

    private Map<String, AttributeValue> indexEntry(String upstream, String downstream) {
        Map<String, AttributeValue> entry = ItemCodec.item(TableKeys.downstream(upstream, downstream), null, null);
        entry.put("upstream", AttributeValue.fromS(upstream));
        entry.put("downstream", AttributeValue.fromS(downstream));
        return entry;
    }
}
