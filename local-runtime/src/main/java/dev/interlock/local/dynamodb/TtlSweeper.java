package dev.interlock.local.dynamodb;

import dev.interlock.model.runtime.TableDefinition;
import java.time.Clock;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * Deletes items whose TTL has passed by the runtime's clock — DynamoDB does this on AWS; DynamoDB Local's own job
 * would go by the wall clock, so the local table keeps it off ({@code InterlockTable}). Readers already treat expired
 * items as absent; the sweeper keeps the local table from growing without bound. Each delete is
 * conditional on the item still being expired, so a rewrite that renewed its TTL is never lost.
 */
public final class TtlSweeper {

    private final DynamoDbClient db;
    private final String tableName;
    private final TableDefinition table;
    private final Clock clock;

    public TtlSweeper(DynamoDbClient db, String tableName, TableDefinition table, Clock clock) {
        this.db = db;
        this.tableName = tableName;
        this.table = table;
        this.clock = clock;
    }

    /** One pass over the table; returns how many expired items were deleted. */
    public int sweepOnce() {
        long now = clock.instant().getEpochSecond();
        String ttl = table.ttlAttribute();
        int deleted = 0;
        Map<String, AttributeValue> start = null;
        do {
            ScanRequest.Builder scan = ScanRequest.builder()
                    .tableName(tableName)
                    .filterExpression("#ttl < :now")
                    .expressionAttributeNames(Map.of("#ttl", ttl, "#pk", table.partitionKey(), "#sk", table.sortKey()))
                    .expressionAttributeValues(Map.of(":now", AttributeValue.fromN(Long.toString(now))))
                    .projectionExpression("#pk, #sk");
            if (start != null) {
                scan.exclusiveStartKey(start);
            }
            ScanResponse page = db.scan(scan.build());
            for (Map<String, AttributeValue> key : page.items()) {
                try {
                    db.deleteItem(b -> b.tableName(tableName)
                            .key(key)
                            .conditionExpression("#ttl < :now")
                            .expressionAttributeNames(Map.of("#ttl", ttl))
                            .expressionAttributeValues(Map.of(":now", AttributeValue.fromN(Long.toString(now)))));
                    deleted++;
                } catch (ConditionalCheckFailedException renewed) {
                    // Rewritten with a later TTL since the scan read it: it is live again.
                }
            }
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return deleted;
    }
}
