package dev.interlock.store.dynamodb;

import static dev.interlock.store.dynamodb.ItemCodec.GSI1PK;
import static dev.interlock.store.dynamodb.ItemCodec.GSI1SK;
import static dev.interlock.store.dynamodb.ItemCodec.PK;
import static dev.interlock.store.dynamodb.ItemCodec.SK;
import static dev.interlock.store.dynamodb.ItemCodec.TTL;

import dev.interlock.model.keys.ItemKey;
import dev.interlock.store.Backoff;
import dev.interlock.store.Page;
import dev.interlock.store.PageRequest;
import dev.interlock.store.StoreException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionCheck;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.Delete;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.InternalServerErrorException;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.RequestLimitExceededException;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.Select;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.TransactionConflictException;
import software.amazon.awssdk.services.dynamodb.model.Update;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The table as the stores use it: every request labelled with its {@link CapacityIntent} and asking for consumed
 * capacity, throttling and transaction conflicts retried with {@link Backoff}, Query looped on LastEvaluatedKey,
 * BatchGetItem looped on UnprocessedKeys, BatchWriteItem on UnprocessedItems, and expired items filtered out of every
 * read.
 */
final class SingleTable {

    static final String GSI1 = "GSI1";
    private static final int BATCH_GET_LIMIT = 100;
    private static final int BATCH_WRITE_LIMIT = 25;
    private static final List<String> TABLE_KEY = List.of(PK, SK);
    private static final List<String> INDEX_KEY = List.of(PK, SK, GSI1PK, GSI1SK);
    private static final Set<String> RETRYABLE_CANCELLATIONS =
            Set.of("None", "TransactionConflict", "ThrottlingError", "ProvisionedThroughputExceeded");
    private static final String CONDITION_FAILED = "ConditionalCheckFailed";

    private final DynamoDbClient client;
    private final String tableName;
    private final Clock clock;
    private final Backoff backoff;

    SingleTable(DynamoDbClient client, String tableName, Clock clock, Backoff backoff) {
        this.client = client;
        this.tableName = tableName;
        this.clock = clock;
        this.backoff = backoff;
    }

    Instant now() {
        return clock.instant();
    }

    String tableName() {
        return tableName;
    }

    Backoff backoff() {
        return backoff;
    }

    /** A condition or filter expression with its placeholders. */
    record Condition(String expression, Map<String, String> names, Map<String, AttributeValue> values) {
        static Condition of(String expression, Map<String, String> names, Map<String, AttributeValue> values) {
            return new Condition(expression, Map.copyOf(names), Map.copyOf(values));
        }

        /** This condition with more placeholders (those an update expression uses). */
        Condition with(Map<String, String> moreNames, Map<String, AttributeValue> moreValues) {
            Map<String, String> names = new HashMap<>(this.names);
            names.putAll(moreNames);
            Map<String, AttributeValue> values = new HashMap<>(this.values);
            values.putAll(moreValues);
            return new Condition(expression, Map.copyOf(names), Map.copyOf(values));
        }
    }

    /**
     * One Query: a partition of the table or of GSI1, optionally narrowed to a sort-key prefix or range, with an
     * extra filter on top of the expiry filter every read has.
     */
    record Query(
            boolean onIndex,
            String partition,
            String skPrefix,
            String skFrom,
            String skTo,
            boolean ascending,
            Condition filter) {
        static Query table(String pk, String skPrefix, boolean ascending) {
            return new Query(false, pk, skPrefix, null, null, ascending, null);
        }

        static Query index(String gsi1pk, boolean ascending) {
            return new Query(true, gsi1pk, null, null, null, ascending, null);
        }

        Query between(String from, String to) {
            return new Query(onIndex, partition, null, from, to, ascending, filter);
        }

        Query filtered(Condition extra) {
            return new Query(onIndex, partition, skPrefix, skFrom, skTo, ascending, extra);
        }

        List<String> keyAttributes() {
            return onIndex ? INDEX_KEY : TABLE_KEY;
        }
    }

    // ------------------------------------------------------------------ single items

    /** The item, expired or not (what conditions will see); strongly consistent. */
    Optional<Map<String, AttributeValue>> getRaw(ItemKey key, CapacityIntent intent) {
        Map<String, AttributeValue> item = call(
                        intent,
                        describe(key),
                        () -> client.getItem(b -> b.tableName(tableName)
                                .key(ItemCodec.key(key))
                                .consistentRead(true)
                                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                                .overrideConfiguration(o -> o.putExecutionAttribute(CapacityIntent.ATTRIBUTE, intent))))
                .item();
        return item == null || item.isEmpty() ? Optional.empty() : Optional.of(item);
    }

    /** The item unless it has expired; strongly consistent. */
    Optional<Map<String, AttributeValue>> getLive(ItemKey key, CapacityIntent intent) {
        Instant now = now();
        return getRaw(key, intent).filter(item -> ItemCodec.isLive(item, now));
    }

    /** Puts an item unconditionally. */
    void put(Map<String, AttributeValue> item, CapacityIntent intent) {
        call(
                intent,
                describe(keyOf(item)),
                () -> client.putItem(b -> b.tableName(tableName)
                        .item(item)
                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                        .overrideConfiguration(o -> o.putExecutionAttribute(CapacityIntent.ATTRIBUTE, intent))));
    }

    /** Puts an item if {@code condition} holds; false when it did not (nothing written). */
    boolean putIf(Map<String, AttributeValue> item, Condition condition, CapacityIntent intent) {
        try {
            call(
                    intent,
                    describe(keyOf(item)),
                    () -> client.putItem(b -> b.tableName(tableName)
                            .item(item)
                            .conditionExpression(condition.expression())
                            .expressionAttributeNames(namesOrNull(condition.names()))
                            .expressionAttributeValues(emptyToNull(condition.values()))
                            .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                            .overrideConfiguration(o -> o.putExecutionAttribute(CapacityIntent.ATTRIBUTE, intent))));
            return true;
        } catch (ConditionalCheckFailedException notNow) {
            return false;
        }
    }

    /** Updates an item if {@code condition} holds; false when it did not (nothing written). */
    boolean updateIf(ItemKey key, String update, Condition condition, CapacityIntent intent) {
        try {
            call(
                    intent,
                    describe(key),
                    () -> client.updateItem(b -> b.tableName(tableName)
                            .key(ItemCodec.key(key))
                            .updateExpression(update)
                            .conditionExpression(condition.expression())
                            .expressionAttributeNames(namesOrNull(condition.names()))
                            .expressionAttributeValues(emptyToNull(condition.values()))
                            .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                            .overrideConfiguration(o -> o.putExecutionAttribute(CapacityIntent.ATTRIBUTE, intent))));
            return true;
        } catch (ConditionalCheckFailedException notNow) {
            return false;
        }
    }

    /** Updates an item unconditionally (creating it if absent) and answers it as it is afterwards. */
    Map<String, AttributeValue> updateReturningNew(
            ItemKey key,
            String update,
            Map<String, String> names,
            Map<String, AttributeValue> values,
            CapacityIntent intent) {
        return call(
                        intent,
                        describe(key),
                        () -> client.updateItem(b -> b.tableName(tableName)
                                .key(ItemCodec.key(key))
                                .updateExpression(update)
                                .expressionAttributeNames(namesOrNull(names))
                                .expressionAttributeValues(emptyToNull(values))
                                .returnValues(ReturnValue.ALL_NEW)
                                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                                .overrideConfiguration(o -> o.putExecutionAttribute(CapacityIntent.ATTRIBUTE, intent))))
                .attributes();
    }

    /** Deletes an item if {@code condition} holds (null: always); false when it did not. */
    boolean deleteIf(ItemKey key, Condition condition, CapacityIntent intent) {
        return deleteIfReturningOld(key, condition, intent).isPresent();
    }

    /**
     * Deletes an item if {@code condition} holds and returns what was there; empty when the condition failed. (A
     * delete of an absent item without condition answers an empty map.)
     */
    Optional<Map<String, AttributeValue>> deleteIfReturningOld(
            ItemKey key, Condition condition, CapacityIntent intent) {
        try {
            Map<String, AttributeValue> old = call(
                            intent,
                            describe(key),
                            () -> client.deleteItem(b -> {
                                b.tableName(tableName)
                                        .key(ItemCodec.key(key))
                                        .returnValues(ReturnValue.ALL_OLD)
                                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                                        .overrideConfiguration(
                                                o -> o.putExecutionAttribute(CapacityIntent.ATTRIBUTE, intent));
                                if (condition != null) {
                                    b.conditionExpression(condition.expression())
                                            .expressionAttributeNames(namesOrNull(condition.names()))
                                            .expressionAttributeValues(emptyToNull(condition.values()));
                                }
                            }))
                    .attributes();
            return Optional.of(old == null ? Map.of() : old);
        } catch (ConditionalCheckFailedException notNow) {
            return Optional.empty();
        }
    }

    /** Deletes an item whatever it holds and returns what was there (expired or not). */
    Optional<Map<String, AttributeValue>> deleteReturningOld(ItemKey key, CapacityIntent intent) {
        Map<String, AttributeValue> old = call(
                        intent,
                        describe(key),
                        () -> client.deleteItem(b -> b.tableName(tableName)
                                .key(ItemCodec.key(key))
                                .returnValues(ReturnValue.ALL_OLD)
                                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                                .overrideConfiguration(o -> o.putExecutionAttribute(CapacityIntent.ATTRIBUTE, intent))))
                .attributes();
        return old == null || old.isEmpty() ? Optional.empty() : Optional.of(old);
    }

    /**
     * Puts many items unconditionally with BatchWriteItem, 25 per request, re-sending UnprocessedItems (what DynamoDB
     * returns when the table is throttled) with backoff. The keys must be distinct (DynamoDB rejects a batch that
     * names one twice). Each put is atomic on its own, the batch is not: a failure part-way leaves the puts made.
     */
    void batchPut(List<Map<String, AttributeValue>> items, CapacityIntent intent) {
        for (int from = 0; from < items.size(); from += BATCH_WRITE_LIMIT) {
            List<Map<String, AttributeValue>> chunk =
                    items.subList(from, Math.min(items.size(), from + BATCH_WRITE_LIMIT));
            List<WriteRequest> pending = chunk.stream()
                    .map(item -> WriteRequest.builder()
                            .putRequest(put -> put.item(item))
                            .build())
                    .toList();
            String subject = describe(keyOf(chunk.getFirst())) + " and " + (chunk.size() - 1) + " more";
            for (int round = 1; !pending.isEmpty(); round++) {
                List<WriteRequest> sending = pending;
                BatchWriteItemResponse response = call(
                        intent,
                        subject,
                        () -> client.batchWriteItem(b -> b.requestItems(Map.of(tableName, sending))
                                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                                .overrideConfiguration(
                                        o -> o.putExecutionAttribute(CapacityIntent.ATTRIBUTE, intent))));
                pending = response.unprocessedItems().getOrDefault(tableName, List.of());
                if (!pending.isEmpty()) {
                    if (!backoff.allowsAnotherAfter(round)) {
                        throw new StoreException(intent.operation() + ": " + pending.size()
                                + " items still unprocessed after " + round + " BatchWriteItem rounds on " + tableName);
                    }
                    backoff.pause(round, intent.operation());
                }
            }
        }
    }

    /**
     * Reads many items with BatchGetItem, 100 keys per request, re-requesting UnprocessedKeys (what DynamoDB returns
     * when a response would pass 16 MB or the table is throttled) with backoff. Expired items are left out.
     */
    List<Map<String, AttributeValue>> batchGetLive(Collection<ItemKey> keys, CapacityIntent intent) {
        Instant now = now();
        List<ItemKey> distinct = keys.stream().distinct().toList();
        List<Map<String, AttributeValue>> found = new ArrayList<>();
        for (int from = 0; from < distinct.size(); from += BATCH_GET_LIMIT) {
            List<Map<String, AttributeValue>> pending =
                    distinct.subList(from, Math.min(distinct.size(), from + BATCH_GET_LIMIT)).stream()
                            .map(ItemCodec::key)
                            .toList();
            for (int round = 1; !pending.isEmpty(); round++) {
                Map<String, KeysAndAttributes> request = Map.of(
                        tableName,
                        KeysAndAttributes.builder()
                                .keys(pending)
                                .consistentRead(true)
                                .build());
                BatchGetItemResponse response = call(
                        intent,
                        describe(distinct.get(from)) + " and " + (pending.size() - 1) + " more",
                        () -> client.batchGetItem(b -> b.requestItems(request)
                                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                                .overrideConfiguration(
                                        o -> o.putExecutionAttribute(CapacityIntent.ATTRIBUTE, intent))));
                response.responses().getOrDefault(tableName, List.of()).stream()
                        .filter(item -> ItemCodec.isLive(item, now))
                        .forEach(found::add);
                KeysAndAttributes unprocessed = response.unprocessedKeys().get(tableName);
                pending = unprocessed == null ? List.of() : unprocessed.keys();
                if (!pending.isEmpty()) {
                    if (!backoff.allowsAnotherAfter(round)) {
                        throw new StoreException(intent.operation() + ": " + pending.size()
                                + " keys still unprocessed after " + round + " BatchGetItem rounds on " + tableName);
                    }
                    backoff.pause(round, intent.operation());
                }
            }
        }
        return found;
    }

    // ------------------------------------------------------------------ queries

    /**
     * One page of live items. Reads {@code limit + 1} live items (looping on LastEvaluatedKey past 1 MB pages and
     * past expired items) so the cursor is present exactly when another item follows; the cursor is the key of the
     * last item returned, not DynamoDB's LastEvaluatedKey, which may lie beyond it.
     */
    Page<Map<String, AttributeValue>> queryPage(Query query, PageRequest page, CapacityIntent intent) {
        int wanted = page.limit() + 1;
        Map<String, AttributeValue> start = page.cursor() == null
                ? null
                : PageCursor.decode(
                        page.cursor(), query.keyAttributes(), query.onIndex() ? GSI1PK : PK, query.partition());
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        do {
            QueryResponse response = queryOnce(query, start, wanted - items.size(), false, intent);
            items.addAll(response.items());
            start = lastEvaluatedKey(response);
        } while (items.size() < wanted && start != null);
        if (items.size() <= page.limit()) {
            return Page.last(items);
        }
        List<Map<String, AttributeValue>> returned = items.subList(0, page.limit());
        return new Page<>(returned, PageCursor.encode(returned.getLast(), query.keyAttributes()));
    }

    /** {@link #queryPage} with each item's document decoded. */
    <T> Page<T> documents(Query query, PageRequest page, CapacityIntent intent, Class<T> type) {
        Page<Map<String, AttributeValue>> items = queryPage(query, page, intent);
        return new Page<>(
                items.items().stream().map(item -> ItemCodec.decode(item, type)).toList(), items.nextCursor());
    }

    /** {@link #queryAll} with each item's document decoded. */
    <T> List<T> allDocuments(Query query, CapacityIntent intent, Class<T> type) {
        return queryAll(query, intent).stream()
                .map(item -> ItemCodec.decode(item, type))
                .toList();
    }

    /** Every live item of the query (bounded listings: a pipeline's markers, downstreams, late arrivals). */
    List<Map<String, AttributeValue>> queryAll(Query query, CapacityIntent intent) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            QueryResponse response = queryOnce(query, start, null, false, intent);
            items.addAll(response.items());
            start = lastEvaluatedKey(response);
        } while (start != null);
        return items;
    }

    /** How many live items the query matches (Select COUNT: capacity of the items read, no data transferred). */
    int count(Query query, CapacityIntent intent) {
        int count = 0;
        Map<String, AttributeValue> start = null;
        do {
            QueryResponse response = queryOnce(query, start, null, true, intent);
            count += response.count();
            start = lastEvaluatedKey(response);
        } while (start != null);
        return count;
    }

    private QueryResponse queryOnce(
            Query query, Map<String, AttributeValue> start, Integer limit, boolean countOnly, CapacityIntent intent) {
        Map<String, String> names = new HashMap<>();
        Map<String, AttributeValue> values = new HashMap<>();
        names.put("#pk", query.onIndex() ? GSI1PK : PK);
        values.put(":pk", AttributeValue.fromS(query.partition()));
        StringBuilder keyCondition = new StringBuilder("#pk = :pk");
        if (query.skPrefix() != null) {
            names.put("#sk", query.onIndex() ? GSI1SK : SK);
            values.put(":skPrefix", AttributeValue.fromS(query.skPrefix()));
            keyCondition.append(" AND begins_with(#sk, :skPrefix)");
        } else if (query.skFrom() != null) {
            names.put("#sk", query.onIndex() ? GSI1SK : SK);
            values.put(":skFrom", AttributeValue.fromS(query.skFrom()));
            values.put(":skTo", AttributeValue.fromS(query.skTo()));
            keyCondition.append(" AND #sk BETWEEN :skFrom AND :skTo");
        }
        names.put("#ttl", TTL);
        values.put(":now", ItemCodec.number(now().getEpochSecond()));
        String filter = "(attribute_not_exists(#ttl) OR #ttl > :now)";
        if (query.filter() != null) {
            filter += " AND (" + query.filter().expression() + ")";
            names.putAll(query.filter().names());
            values.putAll(query.filter().values());
        }
        QueryRequest.Builder request = QueryRequest.builder()
                .tableName(tableName)
                .keyConditionExpression(keyCondition.toString())
                .filterExpression(filter)
                .expressionAttributeNames(names)
                .expressionAttributeValues(values)
                .scanIndexForward(query.ascending())
                // GSIs are only eventually consistent; base-table listings read what was just written.
                .consistentRead(!query.onIndex())
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .overrideConfiguration(o -> o.putExecutionAttribute(CapacityIntent.ATTRIBUTE, intent));
        if (query.onIndex()) {
            request.indexName(GSI1);
        }
        if (start != null) {
            request.exclusiveStartKey(start);
        }
        if (limit != null) {
            request.limit(limit);
        }
        if (countOnly) {
            request.select(Select.COUNT);
        }
        QueryRequest built = request.build();
        String subject = query.partition()
                + (query.skPrefix() == null ? "" : "/" + query.skPrefix() + "*")
                + (query.onIndex() ? " on " + GSI1 : "");
        return call(intent, subject, () -> client.query(built));
    }

    private static Map<String, AttributeValue> lastEvaluatedKey(QueryResponse response) {
        return response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty()
                ? response.lastEvaluatedKey()
                : null;
    }

    // ------------------------------------------------------------------ transactions

    /**
     * Writes the items all or nothing. Returns the cancellation reasons (one per item, in order) when a condition
     * failed, empty when everything was written. Cancellations caused only by conflicts with other transactions or by
     * throttling are retried with backoff; any other cancellation is a store fault.
     */
    Optional<List<CancellationReason>> transact(List<TransactWriteItem> items, CapacityIntent intent, String subject) {
        for (int attempt = 1; ; attempt++) {
            try {
                call(
                        intent,
                        "transaction on " + subject,
                        () -> client.transactWriteItems(b -> b.transactItems(items)
                                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                                .overrideConfiguration(
                                        o -> o.putExecutionAttribute(CapacityIntent.ATTRIBUTE, intent))));
                return Optional.empty();
            } catch (TransactionCanceledException cancelled) {
                List<CancellationReason> reasons =
                        cancelled.hasCancellationReasons() ? cancelled.cancellationReasons() : List.of();
                if (reasons.stream().anyMatch(r -> CONDITION_FAILED.equals(r.code()))) {
                    return Optional.of(reasons);
                }
                boolean retryable = !reasons.isEmpty()
                        && reasons.stream()
                                .allMatch(r -> r.code() == null || RETRYABLE_CANCELLATIONS.contains(r.code()));
                if (!retryable || !backoff.allowsAnotherAfter(attempt)) {
                    throw new StoreException(
                            intent.operation() + " on " + subject + ": transaction cancelled after " + attempt
                                    + " attempts, reasons "
                                    + reasons.stream()
                                            .map(CancellationReason::code)
                                            .toList(),
                            cancelled);
                }
                backoff.pause(attempt, intent.operation());
            }
        }
    }

    /** A Put for {@link #transact}; {@code condition} may be null. */
    TransactWriteItem putOf(Map<String, AttributeValue> item, Condition condition) {
        Put.Builder put = Put.builder().tableName(tableName).item(item);
        if (condition != null) {
            put.conditionExpression(condition.expression())
                    .expressionAttributeNames(namesOrNull(condition.names()))
                    .expressionAttributeValues(emptyToNull(condition.values()));
        }
        return TransactWriteItem.builder().put(put.build()).build();
    }

    /** A Delete for {@link #transact}; {@code condition} may be null. */
    TransactWriteItem deleteOf(ItemKey key, Condition condition) {
        Delete.Builder delete = Delete.builder().tableName(tableName).key(ItemCodec.key(key));
        if (condition != null) {
            delete.conditionExpression(condition.expression())
                    .expressionAttributeNames(namesOrNull(condition.names()))
                    .expressionAttributeValues(emptyToNull(condition.values()));
        }
        return TransactWriteItem.builder().delete(delete.build()).build();
    }

    /**
     * An Update for {@link #transact}; {@code condition} carries the update's placeholders too, and its expression
     * may be null for an unconditional update.
     */
    TransactWriteItem updateOf(ItemKey key, String update, Condition condition) {
        return TransactWriteItem.builder()
                .update(Update.builder()
                        .tableName(tableName)
                        .key(ItemCodec.key(key))
                        .updateExpression(update)
                        .conditionExpression(condition.expression())
                        .expressionAttributeNames(namesOrNull(condition.names()))
                        .expressionAttributeValues(emptyToNull(condition.values()))
                        .build())
                .build();
    }

    /** A ConditionCheck for {@link #transact}: the write goes through only while {@code condition} holds on {@code key}. */
    TransactWriteItem conditionCheckOf(ItemKey key, Condition condition) {
        return TransactWriteItem.builder()
                .conditionCheck(ConditionCheck.builder()
                        .tableName(tableName)
                        .key(ItemCodec.key(key))
                        .conditionExpression(condition.expression())
                        .expressionAttributeNames(namesOrNull(condition.names()))
                        .expressionAttributeValues(emptyToNull(condition.values()))
                        .build())
                .build();
    }

    /** Whether the reason at {@code index} is a failed condition. */
    static boolean conditionFailedAt(List<CancellationReason> reasons, int index) {
        return index < reasons.size()
                && CONDITION_FAILED.equals(reasons.get(index).code());
    }

    // ------------------------------------------------------------------ retry and error context

    /**
     * Backs off before re-running an optimistic read-modify-write that lost to a concurrent writer; past the
     * attempt budget the contention is reported as a store fault naming {@code what}.
     */
    void retryAfterConflict(int attempt, String what) {
        if (!backoff.allowsAnotherAfter(attempt)) {
            throw new StoreException(what + ": still losing to concurrent writers after " + attempt + " attempts");
        }
        backoff.pause(attempt, what);
    }

    /**
     * Runs one request, retrying throttling, request-limit, transaction-conflict and server errors with backoff.
     * Failed conditions and cancelled transactions are outcomes for the caller and pass through; every other failure
     * becomes a StoreException naming the operation and the key.
     */
    <T> T call(CapacityIntent intent, String subject, Supplier<T> request) {
        for (int attempt = 1; ; attempt++) {
            try {
                return request.get();
            } catch (ConditionalCheckFailedException | TransactionCanceledException outcome) {
                throw outcome;
            } catch (DynamoDbException e) {
                if (!isRetryable(e)) {
                    throw new StoreException(
                            intent.operation() + " on " + subject + " in " + tableName + " failed: " + e.getMessage(),
                            e);
                }
                if (!backoff.allowsAnotherAfter(attempt)) {
                    throw new StoreException(
                            intent.operation() + " on " + subject + " in " + tableName
                                    + " still throttled or conflicting after " + attempt + " attempts: "
                                    + e.getMessage(),
                            e);
                }
                backoff.pause(attempt, intent.operation());
            } catch (SdkException e) {
                throw new StoreException(
                        intent.operation() + " on " + subject + " in " + tableName + " failed: " + e.getMessage(), e);
            }
        }
    }

    static boolean isRetryable(DynamoDbException e) {
        return e instanceof ProvisionedThroughputExceededException
                || e instanceof RequestLimitExceededException
                || e instanceof TransactionConflictException
                || e instanceof InternalServerErrorException
                || e.isThrottlingException()
                || e.statusCode() >= 500;
    }

    private static String describe(ItemKey key) {
        return key.pk() + "/" + key.sk();
    }

    static ItemKey keyOf(Map<String, AttributeValue> item) {
        return new ItemKey(ItemCodec.string(item, PK), ItemCodec.string(item, SK));
    }

    private static Map<String, String> namesOrNull(Map<String, String> names) {
        return names.isEmpty() ? null : names;
    }

    private static Map<String, AttributeValue> emptyToNull(Map<String, AttributeValue> values) {
        // DynamoDB rejects an empty ExpressionAttributeValues map; absent is fine.
        return values.isEmpty() ? null : new LinkedHashMap<>(values);
    }
}
