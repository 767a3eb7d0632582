package dev.interlock.store.dynamodb;

import dev.interlock.model.event.Event;
import dev.interlock.model.keys.IndexKey;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.store.EventStore;
import dev.interlock.store.Page;
import dev.interlock.store.PageRequest;
import dev.interlock.store.Retention;
import dev.interlock.store.StoreException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
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
        append(event, suffix -> null, Map.of(), CapacityIntent.EVENT_APPEND);
    }

    /**
     * Appends an event that is also listed on GSI1 ({@code index} of its random suffix; null: not listed) and carries
     * {@code attributes} beside its document for listings to filter on.
     */
    void append(
            Event event,
            Function<String, IndexKey> index,
            Map<String, AttributeValue> attributes,
            CapacityIntent intent) {
        for (int attempt = 1; attempt <= COLLISION_ATTEMPTS; attempt++) {
            String suffix = HexFormat.of().toHexDigits(random.getAsInt());
            Map<String, AttributeValue> item = item(event, suffix, index.apply(suffix));
            item.putAll(attributes);
            if (table.putIf(item, Conditions.absent(), intent)) {
                return;
            }
        }
        throw new StoreException("event of " + event.pipelineId() + " at " + event.timestamp() + ": "
                + COLLISION_ATTEMPTS + " random sort keys in a row were taken");
    }

    /** The item of an event with a fresh random suffix (also written inside run transitions). */
    Map<String, AttributeValue> item(Event event) {
        return item(event, HexFormat.of().toHexDigits(random.getAsInt()), null);
    }

    private Map<String, AttributeValue> item(Event event, String suffix, IndexKey index) {
        Map<String, AttributeValue> item = ItemCodec.item(
                TableKeys.event(event.pipelineId(), event.timestamp().toEpochMilli(), suffix), index, event);
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
