package dev.interlock.local.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.dynamodbv2.local.embedded.DynamoDBEmbedded;
import com.amazonaws.services.dynamodbv2.local.shared.access.AmazonDynamoDBLocal;
import dev.interlock.model.runtime.TableDefinition;
import dev.interlock.store.dynamodb.InterlockTable;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class TtlSweeperTest {

    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    private AmazonDynamoDBLocal local;
    private DynamoDbClient db;

    @BeforeEach
    void start() {
        local = DynamoDBEmbedded.create(true);
        db = local.dynamoDbClient();
        InterlockTable.createIfAbsent(db, "interlock", TableDefinition.INTERLOCK);
    }

    @AfterEach
    void stop() {
        local.shutdownNow();
    }

    private void put(String sk, Long ttl) {
        Map<String, AttributeValue> item = new HashMap<>(Map.of(
                "PK",
                AttributeValue.fromS("PIPELINE#p"),
                "SK",
                AttributeValue.fromS(sk),
                "data",
                AttributeValue.fromS("x".repeat(5000))));
        if (ttl != null) {
            item.put("ttl", AttributeValue.fromN(ttl.toString()));
        }
        db.putItem(b -> b.tableName("interlock").item(item));
    }

    @Test
    void deletesOnlyExpiredItemsAcrossScanPages() {
        // 250 items of 5 KB exceed one 1 MB scan page, so the pagination loop is exercised.
        long now = NOW.getEpochSecond();
        for (int i = 0; i < 250; i++) {
            put("EVENT#old#" + i, now - 1);
        }
        put("LOCK#live", now + 60);
        put("CONFIG", null);
        put("LOCK#edge", now);

        int deleted = new TtlSweeper(db, "interlock", TableDefinition.INTERLOCK, Clock.fixed(NOW, ZoneOffset.UTC))
                .sweepOnce();

        assertThat(deleted).isEqualTo(250);
        List<String> left = db.scan(b -> b.tableName("interlock")).items().stream()
                .map(i -> i.get("SK").s())
                .sorted()
                .toList();
        assertThat(left).containsExactly("CONFIG", "LOCK#edge", "LOCK#live");
    }
}
