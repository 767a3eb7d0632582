package dev.interlock.streamrouter;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.lineage.LineageEventType;
import dev.interlock.model.lineage.RunTransition;
import dev.interlock.model.run.RunState;
import dev.interlock.model.runtime.TableDefinition;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A run-state item as the stream delivers its change (docs/openlineage.md): the run before (null when just created)
 * and after. Whichever function recorded the change — the trigger, the run-checker, the orchestrator's job callback or
 * the watchdog — the change reaches the stream the same way.
 */
public record RunChange(RunState before, RunState after) {

    /** The OpenLineage events this change means ({@link RunTransition}). */
    public List<LineageEventType> lineageEvents() {
        return RunTransition.events(before, after);
    }

    /** The run change {@code record} carries, if it is one; empty for every other record. */
    public static Optional<RunChange> read(DynamodbStreamRecord record, TableDefinition table) {
        if (record.getDynamodb() == null || record.getDynamodb().getKeys() == null) {
            return Optional.empty();
        }
        Map<String, AttributeValue> keys = record.getDynamodb().getKeys();
        if (!table.isRunChange(record.getEventName(), text(keys, table.partitionKey()), text(keys, table.sortKey()))) {
            return Optional.empty();
        }
        RunState after = run(record.getDynamodb().getNewImage());
        if (after == null) {
            return Optional.empty();
        }
        return Optional.of(new RunChange(run(record.getDynamodb().getOldImage()), after));
    }

    private static RunState run(Map<String, AttributeValue> image) {
        String data = image == null ? null : text(image, TableDefinition.DATA);
        return data == null ? null : InterlockJson.read(data, RunState.class);
    }

    private static String text(Map<String, AttributeValue> image, String name) {
        AttributeValue value = image.get(name);
        return value == null ? null : value.getS();
    }
}
