package dev.interlock.store.dynamodb;

import static dev.interlock.store.contract.StoreSamples.DATE;
import static dev.interlock.store.contract.StoreSamples.marker;
import static dev.interlock.store.contract.StoreSamples.pipeline;
import static dev.interlock.store.contract.StoreSamples.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.model.marker.Marker;
import dev.interlock.model.marker.MarkerSource;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.runtime.TableDefinition;
import dev.interlock.store.AlertKey;
import dev.interlock.store.Backoff;
import dev.interlock.store.PageRequest;
import dev.interlock.store.Provider;
import dev.interlock.store.Retention;
import dev.interlock.store.contract.ProviderContract;
import dev.interlock.testing.Documents;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * The Provider contract on the DynamoDB Provider against DynamoDB Local (a fresh table per test), plus what only
 * DynamoDB can show: stream records, the items' top-level attributes, and that listings really page.
 */
class DynamoDbProviderContractTest extends ProviderContract {

    private static final AtomicInteger TABLES = new AtomicInteger();
    private static LocalDynamoDb local;
    private static DynamoDbClient client;
    private static DynamoDbStreamsClient streams;
    private static final RequestCounter COUNTER = new RequestCounter();

    private String tableName;
    private final List<Duration> pauses = new ArrayList<>();

    @BeforeAll
    static void startDynamoDbLocal() {
        local = LocalDynamoDb.shared();
        client = local.client(COUNTER);
        streams = local.streamsClient();
    }

    @AfterAll
    static void stopDynamoDbLocal() {
        if (local != null) {
            client.close();
            streams.close();
        }
    }

    @Override
    protected Provider newProvider(Clock clock) {
        tableName = "interlock-" + TABLES.incrementAndGet();
        InterlockTable.createIfAbsent(client, tableName, TableDefinition.INTERLOCK);
        COUNTER.reset();
        // Contention is real here (many writers, one item); the backoff records its waits instead of sleeping.
        Backoff noWaiting = new Backoff(100, Duration.ofMillis(20), Duration.ofSeconds(1), () -> 0.5, d -> {
            synchronized (pauses) {
                pauses.add(d);
            }
        });
        return new DynamoDbProvider(client, tableName, clock, Retention.DEFAULT, noWaiting);
    }

    @Test
    void aMarkerWrittenTwiceProducesOneStreamInsertWithTheRoutingAttributes() {
        String streamArn =
                client.describeTable(b -> b.tableName(tableName)).table().latestStreamArn();
        Marker marker = marker("gold", MarkerSource.RERUN, TableKeys.cascadeMarkerSuffix("silver", "run-7"), DATE);
        assertThat(provider.cascade().writeMarker(marker)).isTrue();
        assertThat(provider.cascade().writeMarker(marker)).isFalse();

        List<software.amazon.awssdk.services.dynamodb.model.Record> records = new ArrayList<>();
        for (var shard : streams.describeStream(b -> b.streamArn(streamArn))
                .streamDescription()
                .shards()) {
            String iterator = streams.getShardIterator(b -> b.streamArn(streamArn)
                            .shardId(shard.shardId())
                            .shardIteratorType(ShardIteratorType.TRIM_HORIZON))
                    .shardIterator();
            var response = streams.getRecords(b -> b.shardIterator(iterator));
            records.addAll(response.records());
        }
        List<software.amazon.awssdk.services.dynamodb.model.Record> markerRecords = records.stream()
                .filter(r -> r.dynamodb().keys().get("SK").s().startsWith(TableKeys.MARKER_PREFIX))
                .toList();
        assertThat(markerRecords).singleElement().satisfies(r -> {
            assertThat(r.eventNameAsString()).isEqualTo("INSERT");
            Map<String, AttributeValue> image = r.dynamodb().newImage();
            assertThat(image.get("pipelineId").s()).isEqualTo("gold");
            assertThat(image.get("scheduleId").s()).isEqualTo("daily");
            assertThat(image.get("date").s()).isEqualTo(DATE.toString());
            assertThat(image.get("source").s()).isEqualTo("rerun");
            assertThat(image.get("replay").bool()).isTrue();
            assertThat(TableDefinition.INTERLOCK.isMarkerInsert(
                            r.eventNameAsString(), image.get("SK").s()))
                    .isTrue();
        });
    }

    @Test
    void listingsPastOneMegabyteTakeSeveralQueryRequests() {
        for (int i = 0; i < LARGE_ITEM_COUNT; i++) {
            provider.pipelines().put(pipeline(String.format("big-%02d", i), LARGE_ITEM_BYTES));
        }
        COUNTER.reset();
        assertThat(provider.pipelines()
                        .list(PageRequest.first(PageRequest.MAX_LIMIT))
                        .items())
                .hasSize(LARGE_ITEM_COUNT);
        // 32 configs of ~40 KB are ~1.3 MB: DynamoDB returns at most 1 MB per Query, so the loop must have gone on.
        assertThat(COUNTER.requests(CapacityIntent.PIPELINE_LIST, "Query")).isGreaterThanOrEqualTo(2);

        String padding = "z".repeat(LARGE_ITEM_BYTES);
        for (int i = 0; i < LARGE_ITEM_COUNT; i++) {
            provider.events()
                    .append(new Event(
                            EventKind.RUN_STATE_CHANGED,
                            "gold",
                            "daily",
                            DATE,
                            "r" + i,
                            null,
                            null,
                            "big-" + i,
                            Map.of("padding", padding),
                            clock.instant().plusMillis(i)));
        }
        COUNTER.reset();
        assertThat(provider.events()
                        .read("gold", PageRequest.first(PageRequest.MAX_LIMIT))
                        .items())
                .hasSize(LARGE_ITEM_COUNT);
        assertThat(COUNTER.requests(CapacityIntent.EVENT_READ, "Query")).isGreaterThanOrEqualTo(2);
    }

    @Test
    void aPipelineRegisteredBeforeTheWatchdogIndexIsAdoptedOnce() {
        PipelineConfig daily = Documents.read(
                "name: gold\narchetype: batch-ingestion\n"
                        + "trigger: {type: http, url: https://jobs.example.com/run}\nschedules: [{name: daily, after: '12:00'}]\n",
                PipelineConfig.class);
        provider.pipelines().put(daily);
        // What a table written by a version without the index holds: the config, no watch and no due entry.
        var watch = provider.watchdog().watch("gold").orElseThrow();
        client.deleteItem(b -> b.tableName(tableName)
                .key(Map.of(
                        "PK",
                        AttributeValue.fromS(TableKeys.watch("gold").pk()),
                        "SK",
                        AttributeValue.fromS(TableKeys.watch("gold").sk()))));
        var entry = TableKeys.dueEntry(watch.dueAt(), "gold", null);
        client.deleteItem(b -> b.tableName(tableName)
                .key(Map.of("PK", AttributeValue.fromS(entry.pk()), "SK", AttributeValue.fromS(entry.sk()))));
        assertThat(provider.watchdog().watch("gold")).isEmpty();

        var adopted = provider.watchdog().adopt(daily);
        var again = provider.watchdog().adopt(daily);

        assertThat(adopted.dueAt()).isEqualTo(java.time.Instant.parse("2099-02-23T12:00:00Z"));
        assertThat(again).isEqualTo(adopted);
        assertThat(provider.watchdog().watch("gold")).contains(adopted);
        assertThat(provider.watchdog()
                        .due(DATE, TableKeys.dueShard("gold"), adopted.dueAt(), PageRequest.first(10))
                        .items())
                .containsExactly(new dev.interlock.store.DueEntry(adopted.dueAt(), "gold", null));
    }

    @Test
    void everyRequestIsLabelledWithItsCapacityIntent() {
        provider.pipelines().put(pipeline("gold", "silver"));
        provider.pipelines().get("gold");
        provider.runs().create(run("r1", "gold", clock.instant()));
        assertThat(provider.runs().create(run("r1", "gold", clock.instant()))).isFalse();

        assertThat(COUNTER.snapshot())
                .containsOnlyKeys(
                        "pipelines.register GetItem",
                        "pipelines.register TransactWriteItems",
                        "pipelines.get GetItem",
                        "runs.create PutItem");
        // The old config, the old watch (the due entry to move), the archetype's guard and the registered archetype;
        // then one transaction.
        assertThat(COUNTER.requests(CapacityIntent.PIPELINE_PUT)).isEqualTo(5);
        assertThat(COUNTER.requests(CapacityIntent.RUN_CREATE, "PutItem"))
                .as("a failed condition is a request too")
                .isEqualTo(2);
        assertThat(COUNTER.snapshot().get("runs.create PutItem").writeUnits()).isGreaterThan(0);
    }

    @Test
    void anExpiredItemReadsAsAbsentWhileDynamoDbStillHoldsIt() {
        AlertKey key = new AlertKey(AlertKind.SLA_MISSED, "gold", DATE, "daily");
        provider.alerts().claim(key, "exec-a", Duration.ofMinutes(5));
        provider.alerts().markSent(key, "exec-a");
        clock.advance(Duration.ofDays(8));
        // The item's ttl is past by the injected clock but not by the wall clock, so no TTL job has removed it.
        assertThat(client.scan(b -> b.tableName(tableName)).items()).hasSize(1);
        assertThat(provider.alerts().claim(key, "exec-b", Duration.ofMinutes(5)))
                .isTrue();
    }
}
