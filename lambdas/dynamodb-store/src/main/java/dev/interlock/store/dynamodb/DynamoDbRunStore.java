package dev.interlock.store.dynamodb;

import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.store.Page;
import dev.interlock.store.PageRequest;
import dev.interlock.store.Retention;
import dev.interlock.store.RunStore;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * Run states ({@code RUN#<runId>/STATE}, listed via GSI1 {@code RUNS#<pipelineId>} by creation time). Besides the
 * document they carry {@code version} (the CAS condition) and {@code status} (so the watchdog's filter reads no
 * documents it will drop).
 */
final class DynamoDbRunStore implements RunStore {

    static final String STATUS = "status";
    private static final String SWAP = "SET #data = :data, #version = :next, #status = :status, #ttl = :ttl";

    private final SingleTable table;
    private final Retention retention;

    DynamoDbRunStore(SingleTable table, Retention retention) {
        this.table = table;
        this.retention = retention;
    }

    @Override
    public boolean create(RunState run) {
        return table.putIf(newItem(run), Conditions.absent(), CapacityIntent.RUN_CREATE);
    }

    /** The item of a run as first written. */
    Map<String, AttributeValue> newItem(RunState run) {
        Map<String, AttributeValue> item = ItemCodec.item(
                TableKeys.runState(run.runId()),
                TableKeys.runStateIndex(run.pipelineId(), run.createdAt(), run.runId()),
                run);
        item.put(ItemCodec.VERSION, ItemCodec.number(run.version()));
        item.put(STATUS, AttributeValue.fromS(run.status().wireName()));
        item.put("pipelineId", AttributeValue.fromS(run.pipelineId()));
        item.put(ItemCodec.TTL, ItemCodec.ttlAt(table.now().plus(retention.runs())));
        return item;
    }

    @Override
    public Optional<RunState> get(String runId) {
        return table.getLive(TableKeys.runState(runId), CapacityIntent.RUN_GET)
                .map(item -> ItemCodec.decode(item, RunState.class));
    }

    @Override
    public boolean compareAndSwap(long expectedVersion, RunState next) {
        requireNextVersion(expectedVersion, next);
        SingleTable.Condition condition = swapCondition(expectedVersion, next);
        return table.updateIf(TableKeys.runState(next.runId()), SWAP, condition, CapacityIntent.RUN_CAS);
    }

    /** The same compare-and-swap as one item of a transaction. */
    TransactWriteItem swapInTransaction(long expectedVersion, RunState next) {
        requireNextVersion(expectedVersion, next);
        return table.updateOf(TableKeys.runState(next.runId()), SWAP, swapCondition(expectedVersion, next));
    }

    @Override
    public Page<RunState> listByPipeline(String pipelineId, PageRequest page) {
        return table.documents(
                SingleTable.Query.index(TableKeys.runsByPipeline(pipelineId), false),
                page,
                CapacityIntent.RUN_LIST,
                RunState.class);
    }

    @Override
    public List<RunState> listNonTerminal(String pipelineId, Instant createdFrom, Instant createdBefore) {
        Map<String, AttributeValue> terminal = new HashMap<>();
        List<RunStatus> terminalStatuses =
                Arrays.stream(RunStatus.values()).filter(RunStatus::isTerminal).toList();
        for (int i = 0; i < terminalStatuses.size(); i++) {
            terminal.put(
                    ":terminal" + i,
                    AttributeValue.fromS(terminalStatuses.get(i).wireName()));
        }
        SingleTable.Condition notTerminal = SingleTable.Condition.of(
                "NOT (#status IN ("
                        + String.join(", ", terminal.keySet().stream().sorted().toList()) + "))",
                Map.of("#status", STATUS),
                terminal);
        // GSI1SK is "<createdAt>#<runId>", so BETWEEN from AND before keeps runs created exactly at `before` out.
        SingleTable.Query query = SingleTable.Query.index(TableKeys.runsByPipeline(pipelineId), true)
                .between(InterlockJson.timestamp(createdFrom), InterlockJson.timestamp(createdBefore))
                .filtered(notTerminal);
        return table.allDocuments(query, CapacityIntent.RUN_LIST_NON_TERMINAL, RunState.class);
    }

    @Override
    public List<RunState> listCreated(String pipelineId, Instant createdFrom, Instant createdBefore) {
        SingleTable.Query query = SingleTable.Query.index(TableKeys.runsByPipeline(pipelineId), true)
                .between(InterlockJson.timestamp(createdFrom), InterlockJson.timestamp(createdBefore));
        return table.allDocuments(query, CapacityIntent.RUN_LIST_CREATED, RunState.class);
    }

    private SingleTable.Condition swapCondition(long expectedVersion, RunState next) {
        Instant now = table.now();
        return Conditions.liveAtVersion(expectedVersion, now)
                .with(
                        Map.of("#data", ItemCodec.DATA, "#status", STATUS),
                        Map.of(
                                ":data",
                                AttributeValue.fromS(InterlockJson.write(next)),
                                ":next",
                                ItemCodec.number(next.version()),
                                ":status",
                                AttributeValue.fromS(next.status().wireName()),
                                ":ttl",
                                ItemCodec.ttlAt(now.plus(retention.runs()))));
    }

    private static void requireNextVersion(long expectedVersion, RunState next) {
        if (next.version() != expectedVersion + 1) {
            throw new IllegalArgumentException("run " + next.runId() + ": next version must be " + (expectedVersion + 1)
                    + ", was " + next.version());
        }
    }
}
