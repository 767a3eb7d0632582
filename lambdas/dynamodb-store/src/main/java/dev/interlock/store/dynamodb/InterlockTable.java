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
     * Creates the table and enables TTL on the definition's attribute; an existing table is left as it is
     * (restarting the local runtime with {@code --data-dir}). Returns whether it was created now.
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
        if (created) {
            client.updateTimeToLive(b -> b.tableName(tableName)
                    .timeToLiveSpecification(TimeToLiveSpecification.builder()
                            .attributeName(def.ttlAttribute())
                            .enabled(true)
                            .build()));
        }
        return created;
    }

    private static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }
}
