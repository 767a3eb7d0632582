package dev.interlock.store.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.dynamodbv2.local.embedded.DynamoDBEmbedded;
import com.amazonaws.services.dynamodbv2.local.shared.access.AmazonDynamoDBLocal;
import dev.interlock.model.runtime.TableDefinition;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Proves DynamoDB Local runs embedded with this SDK version and {@link InterlockTable} creates the shared table definition. */
class InterlockTableTest {

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
        assertThat(InterlockTable.createIfAbsent(client, "interlock", TableDefinition.INTERLOCK))
                .isTrue();
        assertThat(InterlockTable.createIfAbsent(client, "interlock", TableDefinition.INTERLOCK))
                .isFalse();
        var described = client.describeTable(b -> b.tableName("interlock")).table();
        assertThat(described.globalSecondaryIndexes())
                .singleElement()
                .satisfies(gsi -> assertThat(gsi.indexName()).isEqualTo("GSI1"));
        assertThat(described.streamSpecification().streamViewTypeAsString()).isEqualTo("NEW_AND_OLD_IMAGES");
        assertThat(client.describeTimeToLive(b -> b.tableName("interlock"))
                        .timeToLiveDescription()
                        .attributeName())
                .isEqualTo("ttl");

        client.putItem(b -> b.tableName("interlock")
                .item(Map.of(
                        "PK", AttributeValue.fromS("PIPELINE#silver"),
                        "SK", AttributeValue.fromS("CONFIG"),
                        "data", AttributeValue.fromS("{\"name\":\"silver\"}"))));

        Map<String, AttributeValue> item = client.getItem(b -> b.tableName("interlock")
                        .key(Map.of(
                                "PK", AttributeValue.fromS("PIPELINE#silver"), "SK", AttributeValue.fromS("CONFIG"))))
                .item();
        assertThat(item.get("data").s()).isEqualTo("{\"name\":\"silver\"}");
    }
}
