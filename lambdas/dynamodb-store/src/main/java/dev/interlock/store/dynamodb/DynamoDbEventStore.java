package dev.interlock.store.dynamodb;

import dev.interlock.model.event.Event;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.store.EventStore;
import dev.interlock.store.Page;
import dev.interlock.store.PageRequest;
import dev.interlock.store.Retention;
import dev.interlock.store.StoreException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Events ({@code PIPELINE#<id>/EVENT#<13-digit millis>#<8 hex>}): the sort key orders them by time, the random part
 * keeps events of one millisecond apart, and {@code attribute_not_exists} makes a collision a retry, not a loss.
 */
final class DynamoDbEventStore implements EventStore {

    private static final int COLLISION_ATTEMPTS = 3;

    private final SingleTable table;
    private final Retention retention;
    private final IntSupplier random;

    DynamoDbEventStore(SingleTable table, Retention retention, IntSupplier random) {
        this.table = table;
        this.retention = retention;
        this.random = random;
    }

    @Override
    public void append(Event event) {
        for (int attempt = 1; attempt <= COLLISION_ATTEMPTS; attempt++) {
            if (table.putIf(item(event), Conditions.absent(), CapacityIntent.EVENT_APPEND)) {
                return;
            }
        }
        throw new StoreException("event of " + event.pipelineId() + " at " + event.timestamp() + ": "
                + COLLISION_ATTEMPTS + " random sort keys in a row were taken");
    }

    /** The item of an event with a fresh random suffix (also written inside run transitions). */
    Map<String, AttributeValue> item(Event event) {
        String suffix = HexFormat.of().toHexDigits(random.getAsInt());
        Map<String, AttributeValue> item = ItemCodec.item(
                TableKeys.event(event.pipelineId(), event.timestamp().toEpochMilli(), suffix), null, event);
        item.put(ItemCodec.TTL, ItemCodec.ttlAt(table.now().plus(retention.events())));
        return item;
    }

    @Override
    public Page<Event> read(String pipelineId, PageRequest page) {
        return table.documents(
                SingleTable.Query.table(TableKeys.pipelinePk(pipelineId), TableKeys.EVENT_PREFIX, true),
                page,
                CapacityIntent.EVENT_READ,
                Event.class);
    }

    @Override
    public List<Event> latest(String pipelineId, int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be positive: " + count);
        }
        return table.documents(
                        SingleTable.Query.table(TableKeys.pipelinePk(pipelineId), TableKeys.EVENT_PREFIX, false),
                        PageRequest.first(count),
                        CapacityIntent.EVENT_READ,
                        Event.class)
                .items()
                .reversed();
    }
}
