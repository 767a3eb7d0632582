package dev.interlock.store.dynamodb;

import dev.interlock.model.keys.ItemKey;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.model.rerun.Rerun;
import dev.interlock.store.Page;
import dev.interlock.store.PageRequest;
import dev.interlock.store.RerunStore;
import dev.interlock.store.Retention;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * Reruns: the rerun item {@code RERUN#<id>/STATE} (listed via GSI1 {@code TYPE#rerun} by request time) and, in the
 * same transaction, the pipeline's copy {@code PIPELINE#<id>/RERUN#<date>#<schedule>#<rerunId>} (counted and searched
 * per day, listed per pipeline via GSI1 {@code RERUNS#<id>} by request time: the two index partitions never mix, so
 * neither listing has duplicates). A new rerun also adds one to the budget counter
 * {@code PIPELINE#<id>/RERUNBUDGET#<date>#<schedule>} that {@code acceptRerun} is gated on; the writes themselves are
 * the Provider's ({@code acceptRerun}, {@code moveRerun}), since they share transactions with markers and events.
 */
final class DynamoDbRerunStore implements RerunStore {

    private final SingleTable table;
    private final Retention retention;

    DynamoDbRerunStore(SingleTable table, Retention retention) {
        this.table = table;
        this.retention = retention;
    }

    /** The budget counter's count attribute. */
    static final String COUNT = "n";
    /** Where {@link #newRerunWrites} puts the rerun item and the budget counter update. */
    static final int RERUN_ITEM = 0;

    static final int BUDGET_ITEM = 2;

    /**
     * The writes of a new rerun, at fixed positions: [{@link #RERUN_ITEM} the rerun item if absent, 1 the pipeline's
     * copy, {@link #BUDGET_ITEM} one more on the budget counter, refreshing its TTL to the rerun's] — the counter
     * conditional on fewer than {@code maxPerDay} counted.
     */
    List<TransactWriteItem> newRerunWrites(Rerun rerun, int maxPerDay) {
        List<TransactWriteItem> writes = new ArrayList<>();
        writes.add(table.putOf(truthItem(rerun), Conditions.absent()));
        writes.add(table.putOf(copyItem(rerun), null));
        SingleTable.Condition budget = SingleTable.Condition.of(
                "attribute_not_exists(#n) OR #n < :max", Map.of(), Map.of(":max", ItemCodec.number(maxPerDay)));
        writes.add(table.updateOf(
                budgetKey(rerun),
                "ADD #n :one SET #ttl = :ttl",
                budget.with(
                        Map.of("#n", COUNT, "#ttl", ItemCodec.TTL),
                        Map.of(":one", ItemCodec.number(1), ":ttl", rerunTtl()))));
        return writes;
    }

    /**
     * The writes of a rerun's move, read from {@code stored} (its raw item, absent for a rerun recorded refused): [
     * {@link #RERUN_ITEM} the rerun item, conditional on being absent or unchanged since read, 1 the pipeline's copy].
     */
    List<TransactWriteItem> moveWrites(Rerun next, Optional<Map<String, AttributeValue>> stored) {
        List<TransactWriteItem> writes = new ArrayList<>();
        SingleTable.Condition unchanged = stored.isEmpty()
                ? Conditions.absent()
                : SingleTable.Condition.of(
                        "#data = :read",
                        Map.of("#data", ItemCodec.DATA),
                        Map.of(":read", stored.get().get(ItemCodec.DATA)));
        writes.add(table.putOf(truthItem(next), unchanged));
        writes.add(table.putOf(copyItem(next), null));
        return writes;
    }

    /** The rerun item as stored, expired or not (what conditions see). */
    Optional<Map<String, AttributeValue>> raw(String rerunId) {
        return table.getRaw(TableKeys.rerun(rerunId), CapacityIntent.RERUN_MOVE);
    }

    /**
     * The writes of a backfill's rerun, which spends no budget: [{@link #RERUN_ITEM} the rerun item if absent, 1 the
     * pipeline's copy, marked {@link #BACKFILL} so {@link #count} leaves it out].
     */
    List<TransactWriteItem> backfillRerunWrites(Rerun rerun) {
        List<TransactWriteItem> writes = new ArrayList<>();
        writes.add(table.putOf(truthItem(rerun), Conditions.absent()));
        writes.add(table.putOf(copyItem(rerun), null));
        return writes;
    }

    /** The attribute that marks the pipeline copy of a backfill's rerun (its backfill's id). */
    static final String BACKFILL = "backfill";

    /** How many reruns the budget counter of {@code rerun}'s (pipeline, date, schedule) holds, expired or not. */
    int budgetUsed(Rerun rerun) {
        return table.getRaw(budgetKey(rerun), CapacityIntent.RERUN_ACCEPT)
                .map(item -> item.get(COUNT))
                .map(n -> Integer.parseInt(n.n()))
                .orElse(0);
    }

    private Map<String, AttributeValue> truthItem(Rerun rerun) {
        Map<String, AttributeValue> item =
                ItemCodec.item(TableKeys.rerun(rerun.rerunId()), TableKeys.rerunIndex(rerun.requestedAt()), rerun);
        item.put(ItemCodec.TTL, rerunTtl());
        return item;
    }

    private Map<String, AttributeValue> copyItem(Rerun rerun) {
        Map<String, AttributeValue> item = ItemCodec.item(
                copyKey(rerun),
                TableKeys.rerunOfPipelineIndex(rerun.pipelineId(), rerun.requestedAt(), rerun.rerunId()),
                rerun);
        item.put(ItemCodec.TTL, rerunTtl());
        if (rerun.backfillId() != null) {
            item.put(BACKFILL, AttributeValue.fromS(rerun.backfillId()));
        }
        return item;
    }

    private AttributeValue rerunTtl() {
        return ItemCodec.ttlAt(table.now().plus(retention.reruns()));
    }

    private static ItemKey budgetKey(Rerun rerun) {
        return TableKeys.rerunBudget(rerun.pipelineId(), rerun.date(), rerun.scheduleId());
    }

    @Override
    public Optional<Rerun> get(String rerunId) {
        return table.getLive(TableKeys.rerun(rerunId), CapacityIntent.RERUN_GET)
                .map(item -> ItemCodec.decode(item, Rerun.class));
    }

    @Override
    public Page<Rerun> list(PageRequest page) {
        return table.documents(
                SingleTable.Query.index(TableKeys.RERUN_TYPE, false), page, CapacityIntent.RERUN_LIST, Rerun.class);
    }

    @Override
    public Page<Rerun> listByPipeline(String pipelineId, PageRequest page) {
        return table.documents(
                SingleTable.Query.index(TableKeys.rerunsByPipeline(pipelineId), false),
                page,
                CapacityIntent.RERUN_LIST,
                Rerun.class);
    }

    @Override
    public Optional<Rerun> forExecution(String pipelineId, LocalDate date, String scheduleId, String executionName) {
        // A day has at most its budget of reruns (plus refused ones): one small consistent Query.
        return table
                .allDocuments(
                        SingleTable.Query.table(
                                TableKeys.pipelinePk(pipelineId), TableKeys.rerunPrefix(date, scheduleId), true),
                        CapacityIntent.RERUN_FOR_EXECUTION,
                        Rerun.class)
                .stream()
                .filter(r -> executionName != null && executionName.equals(r.executionName()))
                .findFirst();
    }

    @Override
    public int count(String pipelineId, LocalDate date, String scheduleId) {
        return table.count(
                SingleTable.Query.table(TableKeys.pipelinePk(pipelineId), TableKeys.rerunPrefix(date, scheduleId), true)
                        .filtered(SingleTable.Condition.of(
                                "attribute_not_exists(#backfill)", Map.of("#backfill", BACKFILL), Map.of())),
                CapacityIntent.RERUN_COUNT);
    }

    private static ItemKey copyKey(Rerun rerun) {
        return TableKeys.rerunOfPipeline(rerun.pipelineId(), rerun.date(), rerun.scheduleId(), rerun.rerunId());
    }
}
