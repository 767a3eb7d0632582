package dev.interlock.store.dynamodb;

import dev.interlock.model.runtime.TableDefinition;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveSpecification;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;

/**
 * Creates the Interlock table from {@link TableDefinition} through the DynamoDB API — for DynamoDB Local in the local
 * runtime and the store tests. (On AWS the CDK stack creates it from the same definition.)
 */
public final class InterlockTable {

    private InterlockTable() {}

    /** The CreateTable request for a table of this name: on-demand, GSI1, stream. */
    public static CreateTableRequest createRequest(String tableName, TableDefinition def) {
        Set<String> keyAttributes = new LinkedHashSet<>();
        keyAttributes.add(def.partitionKey());
        keyAttributes.add(def.sortKey());
        List<GlobalSecondaryIndex> indexes = new ArrayList<>();
        for (TableDefinition.GlobalIndex gsi : def.globalIndexes()) {
            keyAttributes.add(gsi.partitionKey());
            keyAttributes.add(gsi.sortKey());
            indexes.add(GlobalSecondaryIndex.builder()
                    .indexName(gsi.name())
                    .keySchema(key(gsi.partitionKey(), KeyType.HASH), key(gsi.sortKey(), KeyType.RANGE))
                    .projection(Projection.builder()
                            .projectionType(
                                    ProjectionType.fromValue(gsi.projection().name()))
                            .build())
                    .build());
        }
        return CreateTableRequest.builder()
                .tableName(tableName)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(keyAttributes.stream()
                        .map(a -> AttributeDefinition.builder()
                                .attributeName(a)
                                .attributeType(ScalarAttributeType.S)
                                .build())
                        .toList())
                .keySchema(key(def.partitionKey(), KeyType.HASH), key(def.sortKey(), KeyType.RANGE))
                .globalSecondaryIndexes(indexes)
                .streamSpecification(StreamSpecification.builder()
                        .streamEnabled(true)
                        .streamViewType(
                                StreamViewType.fromValue(def.streamView().name()))
                        .build())
                .build();
    }

    /**
     * Creates the table; an existing table is left as it is (restarting the local runtime with {@code --data-dir}).
     * Returns whether it was created now.
     *
     * <p>DynamoDB's own TTL stays off on these tables — and is switched off on a table an older version created with
     * it on. DynamoDB Local runs a TTL deletion job by the wall clock, while the local runtime and the tests run on a
     * product clock that may stand anywhere (started months back, 300 times fast, resumed after downtime): an item
     * written at product time with a 30-day TTL can already be "expired" by the wall clock, and that job deleted live
     * runs at random moments. Here expiry goes by the product clock only: every reader treats an expired item as
     * absent, and the runtime's TTL sweeper deletes it. (On AWS the CDK stack turns TTL on: there the two clocks are
     * the same.)
     */
    public static boolean createIfAbsent(DynamoDbClient client, String tableName, TableDefinition def) {
        boolean created;
        try {
            client.createTable(createRequest(tableName, def));
            created = true;
        } catch (ResourceInUseException alreadyThere) {
            created = false;
        }
        client.waiter().waitUntilTableExists(b -> b.tableName(tableName));
        if (!created) {
            TimeToLiveStatus ttl = client.describeTimeToLive(b -> b.tableName(tableName))
                    .timeToLiveDescription()
                    .timeToLiveStatus();
            if (ttl == TimeToLiveStatus.ENABLED || ttl == TimeToLiveStatus.ENABLING) {
                client.updateTimeToLive(b -> b.tableName(tableName)
                        .timeToLiveSpecification(TimeToLiveSpecification.builder()
                                .attributeName(def.ttlAttribute())
                                .enabled(false)
                                .build()));
            }
        }
        return created;
    }

    private static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }
}
