package dev.interlock.store.dynamodb;

import dev.interlock.model.keys.TableKeys;
import dev.interlock.model.pause.Pause;
import dev.interlock.store.PauseStore;
import java.util.List;
import java.util.Optional;

/**
 * Paused pipelines ({@code PAUSE#<id>/PAUSE}, listed via GSI1 {@code TYPE#pause}): the stream router reads a
 * pipeline's by key before it starts an execution. A pause has no end of its own, so it carries no TTL.
 */
final class DynamoDbPauseStore implements PauseStore {

    private final SingleTable table;

    DynamoDbPauseStore(SingleTable table) {
        this.table = table;
    }

    @Override
    public boolean put(Pause pause) {
        return table.putIf(
                ItemCodec.item(TableKeys.pause(pause.pipelineId()), TableKeys.pauseIndex(pause.pipelineId()), pause),
                Conditions.absent(),
                CapacityIntent.PAUSE_PUT);
    }

    @Override
    public Optional<Pause> get(String pipelineId) {
        return table.getLive(TableKeys.pause(pipelineId), CapacityIntent.PAUSE_GET)
                .map(item -> ItemCodec.decode(item, Pause.class));
    }

    @Override
    public Optional<Pause> delete(String pipelineId) {
        return table.deleteReturningOld(TableKeys.pause(pipelineId), CapacityIntent.PAUSE_DELETE)
                .map(item -> ItemCodec.decode(item, Pause.class));
    }

    @Override
    public List<Pause> list() {
        return table.allDocuments(
                SingleTable.Query.index(TableKeys.PAUSE_TYPE, true), CapacityIntent.PAUSE_LIST, Pause.class);
    }
}
