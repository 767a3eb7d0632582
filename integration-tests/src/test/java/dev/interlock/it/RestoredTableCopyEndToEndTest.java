package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.local.dynamodb.LocalDynamoDb;
import dev.interlock.local.runtime.LocalRuntime;
import dev.interlock.model.runtime.TableDefinition;
import dev.interlock.store.dynamodb.InterlockTable;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * What the point-in-time restore runbook (docs/operations.md) relies on, as far as DynamoDB Local allows (it has no
 * point-in-time recovery): a new table holding the old one's items — created without a stream, as a restore creates
 * it, its stream enabled afterwards and found empty, so no marker of before the copy is replayed — serves the same
 * pipelines, day states, runs and events to a runtime started on it.
 *
 * <p>Not shown here: that new markers on such a stream start executions. In this set-up (the stream enabled by
 * UpdateTable after the copy, so its one shard starts at sequence number ~20, on a persistent DynamoDB Local table read
 * by a runtime started afterwards) a new marker's record does reach the stream (read directly with GetRecords from
 * TRIM_HORIZON), but the runtime's stream poller did not deliver it within a minute; why is not yet known.
 */
class RestoredTableCopyEndToEndTest extends EndToEnd {

    @Override
    boolean sharedRuntime() {
        return false;
    }

    @Test
    void aTableRestoredByCopyServesTheSamePipelinesDaysAndHistory(@TempDir Path live, @TempDir Path restored)
            throws Exception {
        startRuntime(live);
        LocalDate date = today();
        putReadyPipelineWithoutRetry(
                "restore-me", "{type: http, url: \"%s/jobs/restore-me\"}".formatted(jobs.endpoint()));
        String execution = evaluate("restore-me", date);
        assertThat(awaitDone(execution)).isEqualTo(ExecutionStatus.SUCCEEDED);
        JsonNode pipeline = expect(200, "GET", "/pipelines/restore-me", null, null);
        String state = dayState(date);
        assertThat(state).isEqualTo("COMPLETED");
        List<JsonNode> runs = runs("restore-me");
        List<String> events = eventKinds("restore-me");
        assertThat(runs)
                .singleElement()
                .satisfies(r -> assertThat(r.path("status").asText()).isEqualTo("COMPLETED"));
        assertThat(events).contains("TRIGGER_FIRED");
        assertThat(runLogStatus("restore-me", date, "daily")).isEqualTo("COMPLETED");
        rt.close();

        int copied = copyTable(live.resolve("dynamodb"), restored.resolve("dynamodb"));
        assertThat(copied).isGreaterThan(0);

        startRuntime(restored);
        assertThat(expect(200, "GET", "/pipelines/restore-me", null, null)).isEqualTo(pipeline);
        assertThat(dayState(date)).isEqualTo(state);
        assertThat(runs("restore-me")).isEqualTo(runs);
        assertThat(eventKinds("restore-me")).isEqualTo(events);
        assertThat(runLogStatus("restore-me", date, "daily")).isEqualTo("COMPLETED");
    }

    private String dayState(LocalDate date) {
        return expect(200, "GET", "/pipelines/restore-me/status?date=" + date, null, null)
                .path("schedules")
                .path(0)
                .path("state")
                .asText();
    }

    /**
     * The runbook's restore, as DynamoDB Local can do it: the target table from the same definition but without a
     * stream (a restore has none), every item copied (Scan → BatchWriteItem), then the stream enabled as the runbook's
     * step 2 does — which must leave it empty, so that no copied marker starts an execution again.
     */
    private static int copyTable(Path sourceDir, Path targetDir) throws Exception {
        int copied = 0;
        try (LocalDynamoDb source = LocalDynamoDb.start(0, sourceDir);
                LocalDynamoDb target = LocalDynamoDb.start(0, targetDir);
                DynamoDbClient from = client(source);
                DynamoDbClient to = client(target)) {
            String table = LocalRuntime.TABLE_NAME;
            to.createTable(InterlockTable.createRequest(table, TableDefinition.INTERLOCK).toBuilder()
                    .streamSpecification((StreamSpecification) null)
                    .build());
            to.waiter().waitUntilTableExists(b -> b.tableName(table));
            List<WriteRequest> batch = new ArrayList<>();
            for (Map<String, AttributeValue> item :
                    from.scanPaginator(b -> b.tableName(table)).items()) {
                batch.add(WriteRequest.builder()
                        .putRequest(PutRequest.builder().item(item).build())
                        .build());
                copied++;
                if (batch.size() == 25) {
                    write(to, table, batch);
                }
            }
            write(to, table, batch);
            String stream = to.updateTable(b -> b.tableName(table)
                            .streamSpecification(StreamSpecification.builder()
                                    .streamEnabled(true)
                                    .streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)
                                    .build()))
                    .tableDescription()
                    .latestStreamArn();
            assertThat(stream).isNotNull();
            try (DynamoDbStreamsClient streams = DynamoDbStreamsClient.builder()
                    .endpointOverride(target.endpoint())
                    .region(Region.US_EAST_1)
                    .credentialsProvider(credentials())
                    .httpClient(UrlConnectionHttpClient.create())
                    .build()) {
                var shards = streams.describeStream(b -> b.streamArn(stream))
                        .streamDescription()
                        .shards();
                for (var shard : shards) {
                    String iterator = streams.getShardIterator(b -> b.streamArn(stream)
                                    .shardId(shard.shardId())
                                    .shardIteratorType(ShardIteratorType.TRIM_HORIZON))
                            .shardIterator();
                    assertThat(streams.getRecords(b -> b.shardIterator(iterator))
                                    .records())
                            .as("the copied items are not in the stream enabled after the copy")
                            .isEmpty();
                }
            }
            assertThat(to.scanPaginator(b -> b.tableName(table)).items().stream()
                            .count())
                    .isEqualTo(copied);
        }
        return copied;
    }

    private static void write(DynamoDbClient to, String table, List<WriteRequest> batch) {
        if (batch.isEmpty()) {
            return;
        }
        Map<String, List<WriteRequest>> pending = Map.of(table, List.copyOf(batch));
        while (!pending.isEmpty()) {
            Map<String, List<WriteRequest>> request = pending;
            pending = to.batchWriteItem(b -> b.requestItems(request)).unprocessedItems();
        }
        batch.clear();
    }

    private static DynamoDbClient client(LocalDynamoDb db) {
        return DynamoDbClient.builder()
                .endpointOverride(db.endpoint())
                .region(Region.US_EAST_1)
                .credentialsProvider(credentials())
                .httpClient(UrlConnectionHttpClient.create())
                .build();
    }

    private static StaticCredentialsProvider credentials() {
        return StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local"));
    }
}
