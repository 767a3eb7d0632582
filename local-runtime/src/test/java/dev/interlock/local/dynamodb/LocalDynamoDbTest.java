package dev.interlock.local.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.runtime.Environment;
import dev.interlock.model.runtime.TableDefinition;
import dev.interlock.runtime.aws.AwsClients;
import dev.interlock.store.dynamodb.InterlockTable;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class LocalDynamoDbTest {

    private static AwsClients clientsFor(LocalDynamoDb db) {
        return new AwsClients(Environment.of(
                Map.of("INTERLOCK_ENDPOINT_DYNAMODB", db.endpoint().toString())));
    }

    @Test
    void servesTheSdkOnLoopbackOnAnEphemeralPortAndPersistsUnderTheDataDir(@TempDir Path dir) throws Exception {
        try (LocalDynamoDb db = LocalDynamoDb.start(0, dir);
                AwsClients clients = clientsFor(db)) {
            assertThat(db.port()).isPositive();
            assertThat(db.endpoint().getHost()).isEqualTo("127.0.0.1");
            InterlockTable.createIfAbsent(clients.dynamoDb(), "interlock", TableDefinition.INTERLOCK);
            clients.dynamoDb()
                    .putItem(b -> b.tableName("interlock")
                            .item(Map.of(
                                    "PK",
                                    AttributeValue.fromS("PIPELINE#silver"),
                                    "SK",
                                    AttributeValue.fromS("CONFIG"))));
        }
        try (LocalDynamoDb db = LocalDynamoDb.start(0, dir);
                AwsClients clients = clientsFor(db)) {
            assertThat(InterlockTable.createIfAbsent(clients.dynamoDb(), "interlock", TableDefinition.INTERLOCK))
                    .isFalse();
            assertThat(clients.dynamoDb()
                            .getItem(b -> b.tableName("interlock")
                                    .key(Map.of(
                                            "PK",
                                            AttributeValue.fromS("PIPELINE#silver"),
                                            "SK",
                                            AttributeValue.fromS("CONFIG"))))
                            .hasItem())
                    .isTrue();
        }
    }
}
