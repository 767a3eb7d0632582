package dev.interlock.store.dynamodb;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * An SDK interceptor that counts DynamoDB requests, and the capacity DynamoDB reports consuming, per store operation
 * ({@link CapacityIntent}) and API call: how tests prove a Query loop really paged and how the benchmark prints the
 * cost of each store operation. Register it on the client's override configuration; thread-safe.
 */
public final class RequestCounter implements ExecutionInterceptor {

    private static final Set<String> READ_OPERATIONS =
            Set.of("GetItem", "Query", "Scan", "BatchGetItem", "TransactGetItems");
    private static final String UNLABELLED = "(unlabelled)";

    private final Map<String, Tally> tallies = new ConcurrentHashMap<>();

    /** Requests and capacity of one (store operation, API call) pair. */
    public record Count(long requests, double readUnits, double writeUnits) {}

    private static final class Tally {
        final LongAdder requests = new LongAdder();
        final DoubleAdder readUnits = new DoubleAdder();
        final DoubleAdder writeUnits = new DoubleAdder();

        Count snapshot() {
            return new Count(requests.sum(), readUnits.sum(), writeUnits.sum());
        }
    }

    @Override
    public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
        String apiCall = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
        CapacityIntent intent = attributes.getAttribute(CapacityIntent.ATTRIBUTE);
        Tally tally = tallies.computeIfAbsent(
                key(intent == null ? UNLABELLED : intent.operation(), apiCall), k -> new Tally());
        tally.requests.increment();
        boolean read = READ_OPERATIONS.contains(apiCall);
        for (ConsumedCapacity capacity : consumed(context.response())) {
            if (capacity.readCapacityUnits() != null || capacity.writeCapacityUnits() != null) {
                tally.readUnits.add(zeroIfNull(capacity.readCapacityUnits()));
                tally.writeUnits.add(zeroIfNull(capacity.writeCapacityUnits()));
            } else if (read) {
                tally.readUnits.add(zeroIfNull(capacity.capacityUnits()));
            } else {
                tally.writeUnits.add(zeroIfNull(capacity.capacityUnits()));
            }
        }
    }

    /**
     * Failed requests (a failed condition, a cancelled transaction) still cost a request; they never reach
     * {@link #afterExecution}, so they are counted here.
     */
    @Override
    public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
        String apiCall = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
        CapacityIntent intent = attributes.getAttribute(CapacityIntent.ATTRIBUTE);
        tallies.computeIfAbsent(key(intent == null ? UNLABELLED : intent.operation(), apiCall), k -> new Tally())
                .requests
                .increment();
    }

    /** Counts so far, keyed {@code <store operation> <API call>} in name order. */
    public Map<String, Count> snapshot() {
        Map<String, Count> out = new TreeMap<>();
        tallies.forEach((k, t) -> out.put(k, t.snapshot()));
        return out;
    }

    /** Requests of one store operation with one API call so far. */
    public long requests(CapacityIntent intent, String apiCall) {
        Tally tally = tallies.get(key(intent.operation(), apiCall));
        return tally == null ? 0 : tally.requests.sum();
    }

    /** Requests of one store operation so far, all API calls. */
    public long requests(CapacityIntent intent) {
        String prefix = intent.operation() + " ";
        return tallies.entrySet().stream()
                .filter(e -> e.getKey().startsWith(prefix))
                .mapToLong(e -> e.getValue().requests.sum())
                .sum();
    }

    /** Forgets every count. */
    public void reset() {
        tallies.clear();
    }

    private static String key(String operation, String apiCall) {
        return operation + " " + apiCall;
    }

    private static double zeroIfNull(Double value) {
        return value == null ? 0 : value;
    }

    private static List<ConsumedCapacity> consumed(SdkResponse response) {
        ConsumedCapacity single = switch (response) {
            case GetItemResponse r -> r.consumedCapacity();
            case PutItemResponse r -> r.consumedCapacity();
            case UpdateItemResponse r -> r.consumedCapacity();
            case DeleteItemResponse r -> r.consumedCapacity();
            case QueryResponse r -> r.consumedCapacity();
            case ScanResponse r -> r.consumedCapacity();
            default -> null;
        };
        if (single != null) {
            return List.of(single);
        }
        return switch (response) {
            case BatchGetItemResponse r -> r.consumedCapacity();
            case TransactWriteItemsResponse r -> r.consumedCapacity();
            default -> List.of();
        };
    }
}
