package dev.interlock.store.dynamodb;

import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.model.marker.Marker;
import dev.interlock.model.marker.MarkerAttributes;
import dev.interlock.store.CascadeStore;
import dev.interlock.store.Retention;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Markers ({@code PIPELINE#<id>/MARKER#<source>#<suffix>}) and the downstream index. A marker carries its document
 * plus top-level {@code pipelineId}, {@code scheduleId}, {@code date}, {@code source}, {@code replay} and, for a
 * monitoring successor, {@code carried} (JSON), which is all the stream router reads from the NewImage.
 */
final class DynamoDbCascadeStore implements CascadeStore {

    private final SingleTable table;
    private final Retention retention;

    DynamoDbCascadeStore(SingleTable table, Retention retention) {
        this.table = table;
        this.retention = retention;
    }

    @Override
    public boolean writeMarker(Marker marker) {
        // attribute_not_exists, not "or expired": re-writing an expired marker would be a stream MODIFY, which the
        // router ignores, so claiming it was written would be a lie.
        return table.putIf(item(marker), Conditions.absent(), CapacityIntent.MARKER_WRITE);
    }

    /** The item of a marker (also written, on the same condition, inside {@code acceptRerun}'s transaction). */
    Map<String, AttributeValue> item(Marker marker) {
        Map<String, AttributeValue> item = ItemCodec.item(marker.key(), null, marker);
        item.put(MarkerAttributes.PIPELINE_ID, AttributeValue.fromS(marker.pipelineId()));
        item.put(MarkerAttributes.SCHEDULE_ID, AttributeValue.fromS(marker.scheduleId()));
        item.put(MarkerAttributes.DATE, AttributeValue.fromS(marker.date().toString()));
        item.put(MarkerAttributes.SOURCE, AttributeValue.fromS(marker.source().wireName()));
        item.put(MarkerAttributes.REPLAY, AttributeValue.fromBool(marker.replay()));
        if (marker.carried() != null) {
            item.put(MarkerAttributes.CARRIED, AttributeValue.fromS(InterlockJson.write(marker.carried())));
        }
        item.put(ItemCodec.TTL, ItemCodec.ttlAt(table.now().plus(retention.markers())));
        return item;
    }

    @Override
    public List<Marker> markers(String pipelineId, LocalDate date) {
        SingleTable.Condition onDate = SingleTable.Condition.of(
                "#date = :date",
                Map.of("#date", MarkerAttributes.DATE),
                Map.of(":date", AttributeValue.fromS(date.toString())));
        return table.allDocuments(
                SingleTable.Query.table(TableKeys.pipelinePk(pipelineId), TableKeys.MARKER_PREFIX, true)
                        .filtered(onDate),
                CapacityIntent.MARKER_LIST,
                Marker.class);
    }

    @Override
    public List<String> downstreamOf(String upstreamPipelineId) {
        return table
                .queryAll(
                        SingleTable.Query.table(
                                TableKeys.pipelinePk(upstreamPipelineId), TableKeys.DOWNSTREAM_PREFIX, true),
                        CapacityIntent.DOWNSTREAM_READ)
                .stream()
                .map(item -> ItemCodec.string(item, ItemCodec.SK).substring(TableKeys.DOWNSTREAM_PREFIX.length()))
                .toList();
    }
}
