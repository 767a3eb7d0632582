package dev.interlock.store.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.keys.LockKey;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.model.runtime.TableDefinition;
import dev.interlock.model.status.DayState;
import dev.interlock.model.status.PipelineDayStatus;
import dev.interlock.model.status.StatusLine;
import dev.interlock.model.trait.TraitResult;
import dev.interlock.model.trait.TraitStatus;
import dev.interlock.model.trigger.TriggerType;
import dev.interlock.store.PageRequest;
import dev.interlock.store.Provider;
import dev.interlock.store.RunLogKey;
import dev.interlock.store.StatusReader;
import dev.interlock.testing.Documents;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * What reading a status costs on DynamoDB, counted by the SDK interceptor: a number of requests per pipeline day that
 * grows with neither its schedules nor its upstreams nor its history (four Queries, one BatchGetItem each for the run
 * logs, the locks and the upstream configs, + 1 for the watchdog's watch while an opened schedule has neither run log
 * nor lock: forward-only), an overview page whose key lookups are batched across its pipelines, and not a single
 * write.
 */
class StatusReaderRequestCountTest {

    private static final Instant NOW = Instant.parse("2026-03-10T09:00:00Z");
    private static final LocalDate DAY = LocalDate.of(2026, 3, 10);
    private static final Set<String> WRITES =
            Set.of("PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems", "BatchWriteItem");
    private static final RequestCounter COUNTER = new RequestCounter();
    private static DynamoDbClient client;
    private static Provider provider;

    @BeforeAll
    static void table() {
        client = LocalDynamoDb.shared().client(COUNTER);
        String name = "interlock-status-" + System.nanoTime();
        InterlockTable.createIfAbsent(client, name, TableDefinition.INTERLOCK);
        provider = new DynamoDbProvider(client, name, Clock.fixed(NOW, ZoneOffset.UTC));
    }

    @AfterAll
    static void close() {
        client.close();
    }

    private static PipelineConfig pipeline(String yaml) {
        return Documents.read(yaml, PipelineConfig.class);
    }

    /** A day with history: 3 schedules, each with a run, a run log, traits, a lock and 40 events. */
    private static void history(String pipelineId, String... schedules) {
        for (String schedule : schedules) {
            String runId = pipelineId + "-" + schedule;
            provider.runs()
                    .create(new RunState(
                            runId,
                            pipelineId,
                            schedule,
                            DAY,
                            RunStatus.PENDING,
                            1,
                            TriggerType.HTTP,
                            "exec",
                            Map.of(),
                            null,
                            null,
                            NOW.minusSeconds(300),
                            NOW.minusSeconds(300)));
            provider.runLogs()
                    .update(
                            new RunLogKey(pipelineId, DAY, schedule),
                            current -> new RunLog(
                                    pipelineId,
                                    DAY,
                                    schedule,
                                    RunLogStatus.PENDING,
                                    0,
                                    runId,
                                    "exec",
                                    null,
                                    null,
                                    List.of(),
                                    false,
                                    NOW.minusSeconds(300),
                                    null,
                                    NOW.minusSeconds(300)));
            provider.traits()
                    .put(new TraitResult(
                            pipelineId,
                            schedule,
                            DAY,
                            "row-count",
                            TraitStatus.FAIL,
                            Map.of("count", 10),
                            "too few rows",
                            null,
                            true,
                            NOW.minusSeconds(30),
                            null));
            provider.locks().acquire(new LockKey(pipelineId, schedule, DAY), "exec-" + schedule, Duration.ofHours(5));
            for (int i = 0; i < 40; i++) {
                provider.events()
                        .append(new Event(
                                EventKind.TRAIT_EVALUATED,
                                pipelineId,
                                schedule,
                                DAY,
                                null,
                                "row-count",
                                "FAIL",
                                "too few rows",
                                Map.of("count", i),
                                NOW.minusSeconds(600 - i)));
            }
        }
    }

    @Test
    void aPipelineDayCostsABoundedNumberOfReadsAndNoWrite() {
        provider.pipelines().put(pipeline("""
                name: raw
                archetype: batch-ingestion
                trigger: {type: http, url: "http://127.0.0.1:9/raw"}
                """));
        provider.pipelines().put(pipeline("""
                name: hourly
                archetype: batch-ingestion
                traits:
                  row-count: {evaluator: "builtin:sensor-threshold", config: {sensor: rows, field: count, op: gte, value: 100}}
                  upstream-dependency: {evaluator: "builtin:upstream-run-log", config: {upstreamPipeline: raw}}
                trigger: {type: http, url: "http://127.0.0.1:9/hourly"}
                schedules: [{name: h00}, {name: h01}, {name: h02}]
                """));
        history("hourly", "h00", "h01", "h02");
        StatusReader reader = new StatusReader(provider, Clock.fixed(NOW, ZoneOffset.UTC));

        COUNTER.reset();
        PipelineDayStatus status = reader.status("hourly", DAY).orElseThrow();

        assertThat(status.schedules()).extracting(s -> s.state()).containsOnly(DayState.NOT_READY);
        Map<String, RequestCounter.Count> counts = COUNTER.snapshot();
        long total = counts.values().stream()
                .mapToLong(RequestCounter.Count::requests)
                .sum();
        System.out.println(
                "status of one pipeline day, 3 schedules, 1 upstream: " + total + " requests " + counts.keySet());
        // config 1; Queries: events, runs, the day's traits, downstream index; BatchGetItems: every run log (its own
        // and the upstream's), every lock, the upstream configs; its mute (1 GetItem; a pipeline naming a team also
        // reads the team's); its pause (1 GetItem). Every schedule has started, so the watch (when each was
        // registered: forward-only) is not read.
        assertThat(total).isEqualTo(1 + 4 + 3 + 1 + 1);
        assertThat(counts.keySet()).noneMatch(key -> WRITES.contains(key.substring(key.lastIndexOf(' ') + 1)));

        COUNTER.reset();
        assertThat(reader.timeline("hourly", DAY)).isPresent();
        assertThat(COUNTER.snapshot().values().stream()
                        .mapToLong(RequestCounter.Count::requests)
                        .sum())
                .as("timeline: config, events, runs")
                .isEqualTo(3);

        COUNTER.reset();
        assertThat(reader.overview(DAY, PageRequest.first(10)).items()).hasSize(2);
        long overview = COUNTER.snapshot().values().stream()
                .mapToLong(RequestCounter.Count::requests)
                .sum();
        System.out.println("overview of 2 pipelines: " + overview + " requests");
        // The listing (1) gives the configs and one query each reads the mutes and the pauses of the page (2), not
        // each pipeline's; one BatchGetItem each reads the page's run logs, locks, upstream configs and the watch of
        // raw (its opened day has not started); each pipeline adds its four Queries.
        assertThat(overview).isEqualTo(1 + 2 + 4 + 2 * 4);
        assertThat(COUNTER.snapshot().get("watchdog.watches BatchGetItem").requests())
                .isEqualTo(1);
        assertThat(COUNTER.snapshot().keySet())
                .noneMatch(key -> WRITES.contains(key.substring(key.lastIndexOf(' ') + 1)));
    }

    @Test
    void anOverviewPageCostsFourQueriesPerPipelineWhateverItsSchedules() {
        String name = "interlock-fleet-" + System.nanoTime();
        InterlockTable.createIfAbsent(client, name, TableDefinition.INTERLOCK);
        Provider fleet = new DynamoDbProvider(client, name, Clock.fixed(NOW, ZoneOffset.UTC));
        for (int i = 0; i < 12; i++) {
            fleet.pipelines().put(pipeline("""
                    name: fleet-%02d
                    archetype: batch-ingestion
                    trigger: {type: http, url: "http://127.0.0.1:9/fleet"}
                    schedules: [{name: hourly, cron: "0 * * * *"}]
                    """.formatted(i)));
        }
        StatusReader reader = new StatusReader(fleet, Clock.fixed(NOW, ZoneOffset.UTC));

        COUNTER.reset();
        List<StatusLine> lines = reader.overview(DAY, PageRequest.first(100)).items();

        assertThat(lines)
                .hasSize(12)
                .allSatisfy(line -> assertThat(line.schedules()).hasSize(24));
        Map<String, RequestCounter.Count> counts = COUNTER.snapshot();
        System.out.println("overview page with 12 hourly pipelines (24 schedules each): " + counts);
        // 24 run logs and 24 locks a pipeline, 288 keys each: three BatchGetItems of 100, not 288 GetItems.
        assertThat(counts.get("runLogs.getAll BatchGetItem").requests()).isEqualTo(3);
        assertThat(counts.get("locks.holders BatchGetItem").requests()).isEqualTo(3);
        assertThat(counts.get("traits.ofDay Query").requests())
                .isEqualTo(counts.get("events.read Query").requests());
        assertThat(counts.keySet()).noneMatch(key -> key.endsWith(" GetItem"));
    }
}
