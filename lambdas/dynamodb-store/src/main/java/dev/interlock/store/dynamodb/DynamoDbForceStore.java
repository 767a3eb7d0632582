package dev.interlock.store.dynamodb;

import dev.interlock.model.force.ForceReady;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.store.ForceStore;
import java.time.LocalDate;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Days forced ready ({@code FORCE#<id>/<date>#<scheduleId>}): an evaluation round that is not ready reads its day's by
 * key. Each expires (TTL) at its {@code expiresAt}, and reads as absent from then on.
 */
final class DynamoDbForceStore implements ForceStore {

    private final SingleTable table;

    DynamoDbForceStore(SingleTable table) {
        this.table = table;
    }

    @Override
    public void put(ForceReady force) {
        Map<String, AttributeValue> item =
                ItemCodec.item(TableKeys.force(force.pipelineId(), force.date(), force.scheduleId()), null, force);
        item.put(ItemCodec.TTL, ItemCodec.ttlAt(force.expiresAt()));
        table.put(item, CapacityIntent.FORCE_PUT);
    }

    @Override
    public Optional<ForceReady> get(String pipelineId, LocalDate date, String scheduleId) {
        return table.getLive(TableKeys.force(pipelineId, date, scheduleId), CapacityIntent.FORCE_GET)
                .map(item -> ItemCodec.decode(item, ForceReady.class));
    }
}
