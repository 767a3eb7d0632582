package dev.interlock.streamrouter;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import dev.interlock.log.LogContext;
import dev.interlock.log.StructuredLog;
import dev.interlock.model.runtime.TableDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the stream router does with one batch: marker inserts go to the {@link MarkerRouter} (one execution each),
 * run-state changes (delivered only when the deployment emits OpenLineage) to the {@link LineageEmitter}, which never
 * fails a record. Answers the batch's failed records by sequence number.
 */
public final class StreamDispatch {

    private final MarkerRouter router;
    private final LineageEmitter lineage;
    private final StructuredLog log;

    public StreamDispatch(MarkerRouter router, LineageEmitter lineage, StructuredLog log) {
        this.router = router;
        this.lineage = lineage;
        this.log = log;
    }

    /** The records to deliver again: markers whose execution could not be started. */
    public List<StreamsEventResponse.BatchItemFailure> route(List<DynamodbEvent.DynamodbStreamRecord> records) {
        List<DynamodbEvent.DynamodbStreamRecord> markers = new ArrayList<>();
        for (DynamodbEvent.DynamodbStreamRecord record : records) {
            if (TableDefinition.INTERLOCK.isMarkerInsert(record.getEventName(), sortKey(record))) {
                markers.add(record);
                continue;
            }
            try {
                RunChange.read(record, TableDefinition.INTERLOCK).ifPresent(lineage::emit);
            } catch (RuntimeException e) {
                // An unreadable run item is the store's concern; lineage skips it and says so.
                log.warn(LogContext.NONE, "run change not read for OpenLineage", Map.of("error", String.valueOf(e)));
            }
        }
        return router.route(markers).stream()
                .filter(MarkerRouter.RecordOutcome::failed)
                .map(outcome -> new StreamsEventResponse.BatchItemFailure(outcome.sequenceNumber()))
                .toList();
    }

    private static String sortKey(DynamodbEvent.DynamodbStreamRecord record) {
        if (record.getDynamodb() == null || record.getDynamodb().getKeys() == null) {
            return null;
        }
        var value = record.getDynamodb().getKeys().get(TableDefinition.INTERLOCK.sortKey());
        return value == null ? null : value.getS();
    }
}
