package dev.interlock.deps.dynamodb;

import dev.interlock.model.keys.ItemKey;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.model.rerun.Rerun;
import dev.interlock.store.Page;
import dev.interlock.store.PageRequest;
import dev.interlock.store.RerunStore;
import dev.interlock.store.Retention;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reruns: the rerun item {@code RERUN#<id>/STATE} (listed via GSI1 {@code TYPE#rerun} by request time) and, in the
 * same transaction, the pipeline's copy {@code PIPELINE#<id>/RERUN#<date>#<schedule>#<rerunId>} that the daily budget
 * counts. Only the rerun item carries GSI1 keys, so the global listing has no duplicates.
 */
final class DynamoDbRerunStore implements RerunStore {

    private final SingleTable table;
    private final Retention retention;

    DynamoDbRerunStore(SingleTable table, Retention retention) {
        this.table = table;
        this.retention = retention;
    }

    @Override
    public void put(Rerun rerun) {
        ItemKey truth = TableKeys.rerun(rerun.rerunId());
        ItemKey copy = copyKey(rerun);
        AttributeValue ttl = ItemCodec.ttlAt(table.now().plus(retention.reruns()));
        Map<String, AttributeValue> truthItem = ItemCodec.item(truth, TableKeys.rerunIndex(rerun.requestedAt()), rerun);
        truthItem.put(ItemCodec.TTL, ttl);
        Map<String, AttributeValue> copyItem = ItemCodec.item(copy, null, rerun);
        copyItem.put(ItemCodec.TTL, ttl);

        List<TransactWriteItem> writes = new ArrayList<>();
        writes.add(table.putOf(truthItem, null));
        writes.add(table.putOf(copyItem, null));
        // A rerun moved to another date or schedule must not stay counted against the old one.
        table.getRaw(truth, CapacityIntent.RERUN_PUT)
                .map(item -> copyKey(ItemCodec.decode(item, Rerun.class)))
                .filter(oldCopy -> !oldCopy.equals(copy))
                .ifPresent(oldCopy -> writes.add(table.deleteOf(oldCopy, null)));
        table.transact(writes, CapacityIntent.RERUN_PUT, truth.pk());
    }

    @Override
    public Optional<Rerun> get(String rerunId) {
        return table.getLive(TableKeys.rerun(rerunId), CapacityIntent.RERUN_GET).map(item -> ItemCodec.decode(item, Rerun.class));
    }

    @Override
    public Page<Rerun> list(PageRequest page) {
        return table.documents(SingleTable.Query.index(TableKeys.RERUN_TYPE, false), page, CapacityIntent.RERUN_LIST, Rerun.class);
    }

    @Override
    public Page<Rerun> listByPipeline(String pipelineId, PageRequest page) {
        return table.documents(SingleTable.Query.table(TableKeys.pipelinePk(pipelineId), TableKeys.RERUN_PREFIX, false),
                page, CapacityIntent.RERUN_LIST, Rerun.class);
    }

    @Override
    public int count(String pipelineId, LocalDate date, String scheduleId) {
        return table.count(SingleTable.Query.table(TableKeys.pipelinePk(pipelineId), TableKeys.rerunPrefix(date, scheduleId), true),
                CapacityIntent.RERUN_COUNT);
    }

    private static ItemKey copyKey(Rerun rerun) {
        return TableKeys.rerunOfPipeline(rerun.pipelineId(), rerun.date(), rerun.scheduleId(), rerun.rerunId());
    }
}
