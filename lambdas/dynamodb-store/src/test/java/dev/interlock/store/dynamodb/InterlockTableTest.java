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

    /**
     * DynamoDB Local runs its own TTL deletion job (every second it scans for up to 20 items whose TTL lies before
     * the wall clock, deletes them, and waits 10 s). The local runtime and the tests run on a product clock that may
     * stand anywhere (started months back, 300x fast): an item written at product time with a 30-day TTL may already
     * be "expired" by the wall clock, and that job deleted runs under the tests' feet at random moments. Local
     * tables leave expiry to readers and the runtime's sweeper, which both go by the product clock.
     */
    @Test
    void anItemWhoseTtlIsBeforeTheWallClockIsNotDeletedByDynamoDbLocal() {
        // The server the functions and the runtime reach (the embedded client above runs no jobs).
        DynamoDbClient client = LocalDynamoDb.shared().client();
        InterlockTable.createIfAbsent(client, "expiry", TableDefinition.INTERLOCK);
        // A control table as older versions made it, TTL on: its copy of the item shows the job has made its pass.
        client.createTable(InterlockTable.createRequest("expiry-control", TableDefinition.INTERLOCK));
        client.updateTimeToLive(b -> b.tableName("expiry-control")
                .timeToLiveSpecification(t -> t.attributeName("ttl").enabled(true)));
        Map<String, AttributeValue> key =
                Map.of("PK", AttributeValue.fromS("RUN#r1"), "SK", AttributeValue.fromS("STATE"));
        long wallClockYesterday =
                java.time.Instant.now().minus(java.time.Duration.ofDays(1)).getEpochSecond();
        Map<String, AttributeValue> item = new java.util.HashMap<>(key);
        // Like a run's state, indexed (DynamoDB Local's job passes over items that are not in every index).
        item.put("GSI1PK", AttributeValue.fromS("RUNS#orders"));
        item.put("GSI1SK", AttributeValue.fromS("2026-03-02T10:00:00Z#r1"));
        item.put("ttl", AttributeValue.fromN(Long.toString(wallClockYesterday)));
        client.putItem(b -> b.tableName("expiry").item(item));
        client.putItem(b -> b.tableName("expiry-control").item(item));

        // Wait until the job has deleted the control's copy (it passes every table with TTL on about once a second).
        java.time.Instant giveUp = java.time.Instant.now().plusSeconds(60);
        while (client.getItem(b -> b.tableName("expiry-control").key(key)).hasItem()) {
            assertThat(java.time.Instant.now())
                    .as("DynamoDB Local's TTL job deleting the control table's expired item")
                    .isBefore(giveUp);
        }

        assertThat(client.getItem(b -> b.tableName("expiry").key(key)).hasItem())
                .as("the item in the table InterlockTable made, after the job's pass")
                .isTrue();
    }

    @Test
    void aTableAnOlderVersionCreatedWithDynamoDbsTtlOnHasItSwitchedOff() {
        client.createTable(InterlockTable.createRequest("older", TableDefinition.INTERLOCK));
        client.updateTimeToLive(b -> b.tableName("older")
                .timeToLiveSpecification(s -> s.attributeName("ttl").enabled(true)));

        assertThat(InterlockTable.createIfAbsent(client, "older", TableDefinition.INTERLOCK))
                .isFalse();

        assertThat(client.describeTimeToLive(b -> b.tableName("older"))
                        .timeToLiveDescription()
                        .timeToLiveStatusAsString())
                .isEqualTo("DISABLED");
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
                        .timeToLiveStatusAsString())
                .as("DynamoDB Local's own expiry job, which goes by the wall clock")
                .isEqualTo("DISABLED");

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
