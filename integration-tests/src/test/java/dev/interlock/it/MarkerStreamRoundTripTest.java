package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.dynamodbv2.local.embedded.DynamoDBEmbedded;
import com.amazonaws.services.dynamodbv2.local.shared.access.AmazonDynamoDBLocal;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import dev.interlock.local.stream.Checkpoints;
import dev.interlock.local.stream.StreamPoller;
import dev.interlock.local.stream.StreamRecordConverter;
import dev.interlock.model.marker.Marker;
import dev.interlock.model.marker.MarkerSource;
import dev.interlock.model.runtime.TableDefinition;
import dev.interlock.store.dynamodb.DynamoDbProvider;
import dev.interlock.store.dynamodb.InterlockTable;
import dev.interlock.streamrouter.MarkerRecord;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The marker's stream attributes are one contract with two sides: the store writes a marker item and the stream
 * router reads it back from the stream record, with no table read. For every marker source, a marker written through
 * the DynamoDB store to DynamoDB Local, carried by its stream and converted to the record Lambda delivers, reads back
 * as the same pipeline, schedule, day, source, replay flag and carried state.
 */
class MarkerStreamRoundTripTest {

    private static final Instant NOW = Instant.parse("2026-03-14T09:30:00Z");
    private static final LocalDate SOME_OTHER_DAY = LocalDate.parse("2001-01-01");

    private static AmazonDynamoDBLocal local;
    private static DynamoDbProvider store;
    private static StreamPoller poller;
    private static final List<DynamodbEvent.DynamodbStreamRecord> delivered = new ArrayList<>();

    @BeforeAll
    static void start() {
        local = DynamoDBEmbedded.create(true);
        DynamoDbClient db = local.dynamoDbClient();
        InterlockTable.createIfAbsent(db, "interlock", TableDefinition.INTERLOCK);
        String streamArn =
                db.describeTable(b -> b.tableName("interlock")).table().latestStreamArn();
        store = new DynamoDbProvider(db, "interlock", Clock.fixed(NOW, ZoneOffset.UTC));
        poller = new StreamPoller(
                local.dynamoDbStreamsClient(),
                streamArn,
                TableDefinition.INTERLOCK,
                new StreamRecordConverter("us-east-1", streamArn),
                batch -> {
                    delivered.addAll(batch.getRecords());
                    return StreamsEventResponse.builder()
                            .withBatchItemFailures(List.of())
                            .build();
                },
                Checkpoints.inMemory(),
                new StreamPoller.Settings(10, 2, Duration.ofSeconds(1), Duration.ofMillis(50)),
                dead -> {},
                pause -> {});
    }

    @AfterAll
    static void stop() {
        local.shutdownNow();
    }

    @ParameterizedTest
    @EnumSource(MarkerSource.class)
    void aMarkerOfEverySourceReadsBackFromItsStreamRecordAsWritten(MarkerSource source) {
        boolean replay = source.ordinal() % 2 == 0;
        Map<String, Object> carried =
                source == MarkerSource.MONITORING ? Map.of("runId", "run-1", "baseline", Map.of("rows", 42)) : null;
        Marker marker = new Marker(
                "pipe-" + source.wireName(),
                "hourly-" + source.ordinal(),
                LocalDate.parse("2026-03-13"),
                source,
                "suffix-" + source.ordinal(),
                replay,
                "origin",
                null,
                NOW,
                carried);
        assertThat(store.cascade().writeMarker(marker)).isTrue();

        delivered.clear();
        poller.pollOnce();

        assertThat(delivered).hasSize(1);
        MarkerRecord.Reading reading =
                MarkerRecord.read(delivered.getFirst(), TableDefinition.INTERLOCK, SOME_OTHER_DAY);
        assertThat(reading).isInstanceOf(MarkerRecord.Routable.class);
        MarkerRecord read = ((MarkerRecord.Routable) reading).marker();
        assertThat(read.pipelineId()).isEqualTo(marker.pipelineId());
        assertThat(read.scheduleId()).isEqualTo(marker.scheduleId());
        assertThat(read.date()).isEqualTo(marker.date());
        assertThat(read.source()).isEqualTo(source.wireName());
        assertThat(read.replay()).isEqualTo(replay);
        assertThat(read.carried()).isEqualTo(carried == null ? Map.of() : carried);
        assertThat(read.markerSk()).endsWith("#" + marker.suffix());
    }
}
