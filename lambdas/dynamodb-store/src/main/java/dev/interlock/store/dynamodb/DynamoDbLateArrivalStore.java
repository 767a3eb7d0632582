package dev.interlock.store.dynamodb;

import dev.interlock.model.keys.TableKeys;
import dev.interlock.model.rerun.LateArrival;
import dev.interlock.store.LateArrivalStore;
import dev.interlock.store.Retention;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Late arrivals ({@code PIPELINE#<id>/LATEARRIVAL#<date>#<schedule>#<millis>}). */
final class DynamoDbLateArrivalStore implements LateArrivalStore {

    private final SingleTable table;
    private final Retention retention;

    DynamoDbLateArrivalStore(SingleTable table, Retention retention) {
        this.table = table;
        this.retention = retention;
    }

    @Override
    public void put(LateArrival lateArrival) {
        Map<String, AttributeValue> item = ItemCodec.item(
                TableKeys.lateArrival(
                        lateArrival.pipelineId(),
                        lateArrival.date(),
                        lateArrival.scheduleId(),
                        lateArrival.detectedAt().toEpochMilli()),
                null,
                lateArrival);
        item.put(ItemCodec.TTL, ItemCodec.ttlAt(table.now().plus(retention.lateArrivals())));
        table.put(item, CapacityIntent.LATE_ARRIVAL_PUT);
    }

    @Override
    public List<LateArrival> list(String pipelineId, LocalDate date, String scheduleId) {
        return table.allDocuments(
                SingleTable.Query.table(
                        TableKeys.pipelinePk(pipelineId), TableKeys.lateArrivalPrefix(date, scheduleId), true),
                CapacityIntent.LATE_ARRIVAL_LIST,
                LateArrival.class);
    }
}
