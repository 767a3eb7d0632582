package dev.interlock.store.dynamodb;

import dev.interlock.model.archetype.Archetype;
import dev.interlock.model.calendar.Calendar;
import dev.interlock.model.json.ValidationError;
import dev.interlock.model.keys.ItemKey;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.watch.PipelineWatch;
import dev.interlock.model.watch.WatchPlan;
import dev.interlock.store.Page;
import dev.interlock.store.PageRequest;
import dev.interlock.store.PipelineIndex;
import dev.interlock.store.PipelineStore;
import dev.interlock.store.Reference;
import dev.interlock.store.Registration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * Pipeline configs ({@code PIPELINE#<id>/CONFIG}, listed via GSI1 {@code TYPE#pipeline}) and, written in the same
 * transaction, the index entries {@link PipelineIndex} names (downstream, archetype and calendar users, sensor readers),
 * the usage of the archetype's and calendar's guards ({@link UsageGuard}), and the pipeline's watchdog watch with its
 * due entry. Configs and watches carry a {@code version} so concurrent registrations of one pipeline (or a watchdog
 * tick) cannot leave the indexes disagreeing with the config.
 */
final class DynamoDbPipelineStore implements PipelineStore {

    private final SingleTable table;
    private final DynamoDbWatchdogIndex watchdog;

    DynamoDbPipelineStore(SingleTable table, DynamoDbWatchdogIndex watchdog) {
        this.table = table;
        this.watchdog = watchdog;
    }

    @Override
    public Registration register(PipelineConfig config, ReferenceCheck check) {
        ItemKey key = TableKeys.pipeline(config.name());
        String archetype = PipelineIndex.archetypeOf(config);
        String calendar = PipelineIndex.calendarOf(config);
        for (int attempt = 1; ; attempt++) {
            Optional<Map<String, AttributeValue>> raw = table.getRaw(key, CapacityIntent.PIPELINE_PUT);
            Instant now = table.now();
            Optional<PipelineConfig> live = raw.filter(item -> ItemCodec.isLive(item, now))
                    .map(item -> ItemCodec.decode(item, PipelineConfig.class));
            long version = raw.map(ItemCodec::version).orElse(0L);
            // Each guard is read before its document, so the document is at least as new as the revision the write
            // is conditioned on: a change in between fails the condition instead of passing unchecked.
            UsageGuard archetypeGuard = archetype == null
                    ? null
                    : UsageGuard.read(table, TableKeys.archetypeUsage(archetype), CapacityIntent.PIPELINE_PUT);
            Archetype registeredArchetype = archetype == null
                    ? null
                    : table.getLive(TableKeys.archetype(archetype), CapacityIntent.PIPELINE_PUT)
                            .map(item -> ItemCodec.decode(item, Archetype.class))
                            .orElse(null);
            UsageGuard calendarGuard = calendar == null
                    ? null
                    : UsageGuard.read(table, TableKeys.calendarUsage(calendar), CapacityIntent.PIPELINE_PUT);
            Calendar registeredCalendar = calendar == null
                    ? null
                    : table.getLive(TableKeys.calendar(calendar), CapacityIntent.PIPELINE_PUT)
                            .map(item -> ItemCodec.decode(item, Calendar.class))
                            .orElse(null);
            List<ValidationError> problems =
                    check.problems(config, new Referenced(registeredArchetype, registeredCalendar));
            if (!problems.isEmpty()) {
                return new Registration.Refused(problems);
            }
            Optional<ValidationError> tooBig = PipelineIndex.sizeProblem(live.orElse(null), config);
            if (tooBig.isPresent()) {
                return new Registration.Refused(List.of(tooBig.get()));
            }
            Optional<Map<String, AttributeValue>> rawWatch =
                    watchdog.rawWatch(config.name(), CapacityIntent.PIPELINE_PUT);
            PipelineWatch previous =
                    rawWatch.map(w -> ItemCodec.decode(w, PipelineWatch.class)).orElse(null);
            PipelineWatch watch = WatchPlan.registered(config, previous, now);

            Map<String, AttributeValue> item = ItemCodec.item(key, TableKeys.pipelineIndex(config.name()), config);
            item.put(ItemCodec.VERSION, ItemCodec.number(version + 1));
            List<TransactWriteItem> writes = new ArrayList<>();
            writes.add(table.putOf(item, Conditions.unchangedSince(version, raw.isPresent())));
            writes.add(table.putOf(
                    watchdog.watchItem(watch),
                    Conditions.unchangedSince(rawWatch.map(ItemCodec::version).orElse(0L), rawWatch.isPresent())));
            writes.addAll(watchdog.moveDueEntry(previous, watch));
            Set<ItemKey> after = PipelineIndex.entriesOf(config);
            for (ItemKey entry : after) {
                writes.add(table.putOf(indexEntry(entry, config.name()), null));
            }
            for (ItemKey entry : live.map(PipelineIndex::entriesOf).orElse(Set.of())) {
                if (!after.contains(entry)) {
                    writes.add(table.deleteOf(entry, null));
                }
            }
            if (archetypeGuard != null) {
                writes.add(archetypeGuard.addUsage(table));
            }
            if (calendarGuard != null) {
                writes.add(calendarGuard.addUsage(table));
            }
            if (table.transact(writes, CapacityIntent.PIPELINE_PUT, key.pk()).isEmpty()) {
                return new Registration.Written(live.isEmpty());
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
            for (ItemKey entry : PipelineIndex.entriesOf(ItemCodec.decode(raw.get(), PipelineConfig.class))) {
                writes.add(table.deleteOf(entry, null));
            }
            Optional<Map<String, AttributeValue>> rawWatch =
                    watchdog.rawWatch(pipelineId, CapacityIntent.PIPELINE_DELETE);
            if (rawWatch.isPresent()) {
                writes.add(table.deleteOf(
                        TableKeys.watch(pipelineId), Conditions.versionIs(ItemCodec.version(rawWatch.get()))));
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
        return table.documents(
                SingleTable.Query.index(TableKeys.PIPELINE_TYPE, true),
                page,
                CapacityIntent.PIPELINE_LIST,
                PipelineConfig.class);
    }

    @Override
    public List<String> dependants(Reference reference) {
        return keySuffixes(table, reference.partitionKey(), TableKeys.PIPELINE_PREFIX);
    }

    /** The sort keys after {@code prefix} of partition {@code pk}, in order: what an index partition lists. */
    static List<String> keySuffixes(SingleTable table, String pk, String prefix) {
        return table.queryAll(SingleTable.Query.table(pk, prefix, true), CapacityIntent.DEPENDANTS_READ).stream()
                .map(item -> ItemCodec.string(item, ItemCodec.SK).substring(prefix.length()))
                .toList();
    }

    /** An index entry: keys only, plus {@code upstream}/{@code downstream} on downstream entries (as before). */
    private static Map<String, AttributeValue> indexEntry(ItemKey entry, String pipelineId) {
        Map<String, AttributeValue> item = ItemCodec.item(entry, null, null);
        String upstream = TableKeys.pipelineIdOf(entry.pk());
        if (upstream != null) {
            item.put("upstream", AttributeValue.fromS(upstream));
            item.put("downstream", AttributeValue.fromS(pipelineId));
        }
        return item;
    }
}
