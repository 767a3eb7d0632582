package dev.interlock.local.stream;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.dynamodbv2.local.embedded.DynamoDBEmbedded;
import com.amazonaws.services.dynamodbv2.local.shared.access.AmazonDynamoDBLocal;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import dev.interlock.model.runtime.TableDefinition;
import dev.interlock.store.dynamodb.InterlockTable;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

class StreamPollerTest {

    private AmazonDynamoDBLocal local;
    private DynamoDbClient db;
    private DynamoDbStreamsClient streams;
    private String streamArn;
    private final List<String> delivered = new CopyOnWriteArrayList<>();
    private final List<StreamPoller.DeadLetter> dead = new CopyOnWriteArrayList<>();
    private final List<Duration> pauses = new ArrayList<>();

    @BeforeEach
    void start() {
        local = DynamoDBEmbedded.create(true);
        db = local.dynamoDbClient();
        streams = local.dynamoDbStreamsClient();
        InterlockTable.createIfAbsent(db, "interlock", TableDefinition.INTERLOCK);
        streamArn = db.describeTable(b -> b.tableName("interlock")).table().latestStreamArn();
    }

    @AfterEach
    void stop() {
        local.shutdownNow();
    }

    private void put(String pk, String sk, Map<String, AttributeValue> extra) {
        Map<String, AttributeValue> item = new HashMap<>(extra);
        item.put("PK", AttributeValue.fromS(pk));
        item.put("SK", AttributeValue.fromS(sk));
        db.putItem(b -> b.tableName("interlock").item(item));
    }

    private StreamPoller poller(StreamPoller.BatchHandler handler, Checkpoints checkpoints) {
        return new StreamPoller(
                streams,
                streamArn,
                TableDefinition.INTERLOCK,
                new StreamRecordConverter("us-east-1", streamArn),
                handler,
                checkpoints,
                new StreamPoller.Settings(10, 2, Duration.ofSeconds(1), Duration.ofMillis(50)),
                dead::add,
                pauses::add);
    }

    private StreamsEventResponse record(DynamodbEvent batch) {
        batch.getRecords()
                .forEach(r -> delivered.add(r.getDynamodb().getKeys().get("SK").getS()));
        return StreamsEventResponse.builder().withBatchItemFailures(List.of()).build();
    }

    @Test
    void deliversOnlyMarkerInsertsWithTheLambdaEventShape() {
        List<DynamodbEvent.DynamodbStreamRecord> seen = new ArrayList<>();
        StreamPoller p = poller(
                batch -> {
                    seen.addAll(batch.getRecords());
                    return record(batch);
                },
                Checkpoints.inMemory());
        put("PIPELINE#silver", "CONFIG", Map.of("data", AttributeValue.fromS("{}")));
        put(
                "PIPELINE#silver",
                "MARKER#manual#1",
                Map.of(
                        "pipelineId",
                        AttributeValue.fromS("silver"),
                        "replay",
                        AttributeValue.fromBool(false),
                        "n",
                        AttributeValue.fromN("3")));
        put("PIPELINE#silver", "MARKER#manual#1", Map.of("pipelineId", AttributeValue.fromS("silver-modified")));

        assertThat(p.pollOnce()).isEqualTo(1);
        assertThat(delivered).containsExactly("MARKER#manual#1");
        DynamodbEvent.DynamodbStreamRecord r = seen.getFirst();
        assertThat(r.getEventName()).isEqualTo("INSERT");
        assertThat(r.getEventSource()).isEqualTo("aws:dynamodb");
        assertThat(r.getEventSourceARN()).isEqualTo(streamArn);
        assertThat(r.getDynamodb().getNewImage().get("pipelineId").getS()).isEqualTo("silver");
        assertThat(r.getDynamodb().getNewImage().get("replay").getBOOL()).isFalse();
        assertThat(r.getDynamodb().getNewImage().get("n").getN()).isEqualTo("3");
        assertThat(r.getDynamodb().getSequenceNumber()).isNotBlank();
        assertThat(r.getDynamodb().getApproximateCreationDateTime().toInstant().getEpochSecond())
                .isBetween(1_700_000_000L, 4_000_000_000L);

        assertThat(p.pollOnce()).isZero();
        assertThat(delivered).hasSize(1);
    }

    @Test
    void retriesOnlyTheReportedFailuresUntilTheySucceed() {
        Map<String, Integer> attempts = new HashMap<>();
        StreamPoller p = poller(
                batch -> {
                    List<StreamsEventResponse.BatchItemFailure> failures = new ArrayList<>();
                    for (var r : batch.getRecords()) {
                        String sk = r.getDynamodb().getKeys().get("SK").getS();
                        int n = attempts.merge(sk, 1, Integer::sum);
                        if (sk.endsWith("#b") && n < 3) {
                            failures.add(StreamsEventResponse.BatchItemFailure.builder()
                                    .withItemIdentifier(r.getDynamodb().getSequenceNumber())
                                    .build());
                        } else {
                            delivered.add(sk);
                        }
                    }
                    return StreamsEventResponse.builder()
                            .withBatchItemFailures(failures)
                            .build();
                },
                Checkpoints.inMemory());
        put("PIPELINE#p", "MARKER#m#a", Map.of());
        put("PIPELINE#p", "MARKER#m#b", Map.of());
        put("PIPELINE#p", "MARKER#m#c", Map.of());

        p.pollOnce();

        assertThat(delivered).containsExactly("MARKER#m#a", "MARKER#m#c", "MARKER#m#b");
        assertThat(attempts)
                .containsEntry("MARKER#m#a", 1)
                .containsEntry("MARKER#m#b", 3)
                .containsEntry("MARKER#m#c", 1);
        assertThat(pauses).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2));
        assertThat(dead).isEmpty();
    }

    @Test
    void recordsThatKeepFailingGoToTheDeadLetterConsumerAndTheShardMovesOn() {
        StreamPoller p = poller(
                batch -> {
                    throw new IllegalStateException("router down");
                },
                Checkpoints.inMemory());
        put("PIPELINE#p", "MARKER#m#x", Map.of());

        p.pollOnce();

        assertThat(dead).singleElement().satisfies(d -> {
            assertThat(d.reason()).contains("router down");
            assertThat(d.record().getDynamodb().getKeys().get("SK").getS()).isEqualTo("MARKER#m#x");
        });
        put("PIPELINE#p", "MARKER#m#y", Map.of());
        StreamPoller healthy = poller(this::record, Checkpoints.inMemory());
        healthy.pollOnce();
        assertThat(delivered).containsExactly("MARKER#m#x", "MARKER#m#y");
    }

    @Test
    void aRestartWithTheSameCheckpointFileNeitherSkipsNorRedelivers(@TempDir Path dir) {
        Path file = dir.resolve("stream-checkpoints.json");
        put("PIPELINE#p", "MARKER#m#1", Map.of());
        poller(this::record, Checkpoints.inFile(file)).pollOnce();
        put("PIPELINE#p", "MARKER#m#2", Map.of());

        StreamPoller restarted = poller(this::record, Checkpoints.inFile(file));
        restarted.pollOnce();

        assertThat(delivered).containsExactly("MARKER#m#1", "MARKER#m#2");
    }
}
