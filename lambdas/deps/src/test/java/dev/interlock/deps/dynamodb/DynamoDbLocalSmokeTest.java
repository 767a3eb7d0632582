package dev.interlock.deps.dynamodb;

import com.amazonaws.services.dynamodbv2.local.embedded.DynamoDBEmbedded;
import com.amazonaws.services.dynamodbv2.local.shared.access.AmazonDynamoDBLocal;
import dev.interlock.model.runtime.TableDefinition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Proves DynamoDB Local runs embedded with this SDK version and accepts the shared table definition. */
class DynamoDbLocalSmokeTest {

    private static AmazonDynamoDBLocal local;
    private static DynamoDbClient client;

    @BeforeAll
    static void start() {
        local = DynamoDBEmbedded.create(true);
        client = local.dynamoDbClient();
    }

    @AfterAll
    static void stop() {
        local.shutdownNow();
    }

    @Test
    void createsTheInterlockTableAndRoundTripsAnItem() {
        TableDefinition t = TableDefinition.INTERLOCK;
        TableDefinition.GlobalIndex gsi = t.globalIndexes().getFirst();
        client.createTable(b -> b.tableName("interlock")
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(
                        AttributeDefinition.builder().attributeName(t.partitionKey()).attributeType(ScalarAttributeType.S).build(),
                        AttributeDefinition.builder().attributeName(t.sortKey()).attributeType(ScalarAttributeType.S).build(),
                        AttributeDefinition.builder().attributeName(gsi.partitionKey()).attributeType(ScalarAttributeType.S).build(),
                        AttributeDefinition.builder().attributeName(gsi.sortKey()).attributeType(ScalarAttributeType.S).build())
                .keySchema(
                        KeySchemaElement.builder().attributeName(t.partitionKey()).keyType(KeyType.HASH).build(),
                        KeySchemaElement.builder().attributeName(t.sortKey()).keyType(KeyType.RANGE).build())
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder().indexName(gsi.name())
                        .keySchema(
                                KeySchemaElement.builder().attributeName(gsi.partitionKey()).keyType(KeyType.HASH).build(),
                                KeySchemaElement.builder().attributeName(gsi.sortKey()).keyType(KeyType.RANGE).build())
                        .projection(Projection.builder().projectionType(ProjectionType.ALL).build()).build())
                .streamSpecification(StreamSpecification.builder().streamEnabled(true)
                        .streamViewType(StreamViewType.NEW_AND_OLD_IMAGES).build()));

        client.putItem(b -> b.tableName("interlock").item(Map.of(
                "PK", AttributeValue.fromS("PIPELINE#silver"),
                "SK", AttributeValue.fromS("CONFIG"),
                "data", AttributeValue.fromS("{\"name\":\"silver\"}"))));

        Map<String, AttributeValue> item = client.getItem(b -> b.tableName("interlock").key(Map.of(
                "PK", AttributeValue.fromS("PIPELINE#silver"), "SK", AttributeValue.fromS("CONFIG")))).item();
        assertThat(item.get("data").s()).isEqualTo("{\"name\":\"silver\"}");
    }
}
