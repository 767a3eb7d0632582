package dev.interlock.store.dynamodb;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * Faults DynamoDB Local never produces on its own — throttling, transaction conflicts, partial BatchGetItem
 * responses — injected into the real SDK pipeline in front of the real DynamoDB Local, so the Provider's retry loops
 * are exercised without mocking DynamoDB.
 */
final class FaultInjection implements ExecutionInterceptor {

    private final Map<String, AtomicInteger> throttles = new ConcurrentHashMap<>();
    private final AtomicInteger transactionConflicts = new AtomicInteger();
    private final AtomicInteger partialBatchGets = new AtomicInteger();

    /** The next {@code times} requests of {@code apiCall} fail with ProvisionedThroughputExceeded. */
    void throttle(String apiCall, int times) {
        throttles.put(apiCall, new AtomicInteger(times));
    }

    /** The next {@code times} TransactWriteItems are cancelled with reason TransactionConflict. */
    void conflictTransactions(int times) {
        transactionConflicts.set(times);
    }

    /** The next {@code times} BatchGetItem responses return half their items and the rest as UnprocessedKeys. */
    void answerBatchGetsByHalf(int times) {
        partialBatchGets.set(times);
    }

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        String apiCall = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
        AtomicInteger left = throttles.get(apiCall);
        if (left != null && left.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw ProvisionedThroughputExceededException.builder()
                    .message("injected throttling of " + apiCall)
                    .statusCode(400)
                    .build();
        }
        if ("TransactWriteItems".equals(apiCall) && transactionConflicts.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw TransactionCanceledException.builder()
                    .message("injected transaction conflict")
                    .cancellationReasons(CancellationReason.builder()
                            .code("TransactionConflict")
                            .build())
                    .statusCode(400)
                    .build();
        }
    }

    @Override
    public SdkResponse modifyResponse(Context.ModifyResponse context, ExecutionAttributes attributes) {
        if (!(context.response() instanceof BatchGetItemResponse response)
                || partialBatchGets.getAndUpdate(n -> Math.max(0, n - 1)) == 0) {
            return context.response();
        }
        Map<String, List<Map<String, AttributeValue>>> kept = new HashMap<>();
        Map<String, KeysAndAttributes> deferred = new HashMap<>();
        response.responses().forEach((table, items) -> {
            int half = items.size() / 2;
            kept.put(table, items.subList(0, half));
            List<Map<String, AttributeValue>> keys = new ArrayList<>();
            for (Map<String, AttributeValue> item : items.subList(half, items.size())) {
                keys.add(Map.of(ItemCodec.PK, item.get(ItemCodec.PK), ItemCodec.SK, item.get(ItemCodec.SK)));
            }
            if (!keys.isEmpty()) {
                deferred.put(
                        table,
                        KeysAndAttributes.builder()
                                .keys(keys)
                                .consistentRead(true)
                                .build());
            }
        });
        return response.toBuilder().responses(kept).unprocessedKeys(deferred).build();
    }
}
