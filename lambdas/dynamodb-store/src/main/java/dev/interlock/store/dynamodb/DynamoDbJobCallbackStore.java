package dev.interlock.store.dynamodb;

import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.model.run.JobCallback;
import dev.interlock.model.trigger.TriggerType;
import dev.interlock.store.JobCallbackStore;
import java.time.Instant;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * {@code JOB#<type>#<jobId>/CALLBACK}: the waiter and the job's end are two attributes of one item, each written by
 * one UpdateItem that returns the whole item, so the second writer always sees the first.
 */
final class DynamoDbJobCallbackStore implements JobCallbackStore {

    private static final String WAITER = "waiter";
    private static final String END = "jobEnd";

    private final SingleTable table;

    DynamoDbJobCallbackStore(SingleTable table) {
        this.table = table;
    }

    @Override
    public JobCallback await(TriggerType type, String jobId, JobCallback.Waiter waiter, Instant expiresAt) {
        Map<String, AttributeValue> item = table.updateReturningNew(
                TableKeys.jobCallback(type.wireName(), jobId),
                "SET #w = :w, #ttl = :ttl",
                Map.of("#w", WAITER, "#ttl", ItemCodec.TTL),
                Map.of(":w", AttributeValue.fromS(InterlockJson.write(waiter)), ":ttl", ItemCodec.ttlAt(expiresAt)),
                CapacityIntent.JOB_CALLBACK_AWAIT);
        return decode(type, jobId, item);
    }

    @Override
    public JobCallback find(TriggerType type, String jobId) {
        return table.getLive(TableKeys.jobCallback(type.wireName(), jobId), CapacityIntent.JOB_CALLBACK_GET)
                .map(item -> decode(type, jobId, item))
                .orElse(null);
    }

    @Override
    public JobCallback ended(TriggerType type, String jobId, JobCallback.JobEnd end, Instant expiresAt) {
        Map<String, AttributeValue> item = table.updateReturningNew(
                TableKeys.jobCallback(type.wireName(), jobId),
                "SET #e = if_not_exists(#e, :e), #ttl = :ttl",
                Map.of("#e", END, "#ttl", ItemCodec.TTL),
                Map.of(":e", AttributeValue.fromS(InterlockJson.write(end)), ":ttl", ItemCodec.ttlAt(expiresAt)),
                CapacityIntent.JOB_CALLBACK_END);
        return decode(type, jobId, item);
    }

    private static JobCallback decode(TriggerType type, String jobId, Map<String, AttributeValue> item) {
        return new JobCallback(
                type, jobId, read(item, WAITER, JobCallback.Waiter.class), read(item, END, JobCallback.JobEnd.class));
    }

    private static <T> T read(Map<String, AttributeValue> item, String attribute, Class<T> type) {
        AttributeValue value = item == null ? null : item.get(attribute);
        return value == null || value.s() == null ? null : InterlockJson.read(value.s(), type);
    }
}
