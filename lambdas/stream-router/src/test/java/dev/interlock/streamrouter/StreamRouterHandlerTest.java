package dev.interlock.streamrouter;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.amazonaws.services.lambda.runtime.tests.EventLoader;
import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.log.StructuredLog;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.marker.ExecutionName;
import dev.interlock.model.pause.Pause;
import dev.interlock.model.pipeline.PipelineConfig;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.SfnClient;

class StreamRouterHandlerTest {

    private static final String STATE_MACHINE = "arn:aws:states:us-east-1:123456789012:stateMachine:interlock-pipeline";
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-03-10T09:00:00Z"), ZoneOffset.UTC);

    private StepFunctionsStub stub;
    private SfnClient client;
    private final AtomicInteger clientsRequested = new AtomicInteger();
    private StreamRouterHandler handler;

    @BeforeEach
    void start() throws IOException {
        stub = new StepFunctionsStub();
        client = stub.client();
        Supplier<SfnClient> supplier = () -> {
            clientsRequested.incrementAndGet();
            return client;
        };
        handler = handler(supplier, new RouterSettings(STATE_MACHINE, 2), CLOCK);
    }

    @AfterEach
    void stop() {
        client.close();
        stub.close();
    }

    private StreamsEventResponse route(String fixture) {
        DynamodbEvent event = EventLoader.loadDynamoDbEvent("events/" + fixture);
        return handler.handleRequest(event, null);
    }

    private static List<String> failed(StreamsEventResponse response) {
        return response.getBatchItemFailures().stream()
                .map(StreamsEventResponse.BatchItemFailure::getItemIdentifier)
                .toList();
    }

    private static String name(String pipeline, String date, String schedule, String markerSk) {
        return pipeline + "_" + date + "_" + schedule + "_" + ExecutionName.hash8(markerSk);
    }

    @Test
    void startsOneExecutionPerMarkerInsertWithTheExactNameAndInput() {
        StreamsEventResponse response = route("markers-mixed.json");

        assertThat(failed(response)).isEmpty();
        List<StepFunctionsStub.StartRequest> requests = stub.requests();
        assertThat(requests)
                .extracting(StepFunctionsStub.StartRequest::name)
                .containsExactly(
                        name("silver", "2026-03-10", "daily", "MARKER#cascade#bronze#run-1"),
                        name("gold", "2026-03-10", "daily", "MARKER#manual#m-1"));
        assertThat(requests.getFirst().name()).matches("silver_2026-03-10_daily_[0-9a-f]{8}");
        assertThat(requests)
                .extracting(StepFunctionsStub.StartRequest::target)
                .containsOnly("AWSStepFunctions.StartExecution");
        assertThat(requests)
                .extracting(StepFunctionsStub.StartRequest::stateMachineArn)
                .containsOnly(STATE_MACHINE);
        assertThat(requests.get(0).input())
                .isEqualTo(InterlockJson.tree(Map.of(
                        "pipelineId",
                        "silver",
                        "scheduleId",
                        "daily",
                        "date",
                        "2026-03-10",
                        "markerSource",
                        "cascade",
                        "replay",
                        false)));
        // No scheduleId, date, source or replay on the marker: daily, today (UTC, from the clock), the SK's source,
        // false.
        assertThat(requests.get(1).input())
                .isEqualTo(InterlockJson.tree(Map.of(
                        "pipelineId",
                        "gold",
                        "scheduleId",
                        "daily",
                        "date",
                        "2026-03-10",
                        "markerSource",
                        "manual",
                        "replay",
                        false)));
    }

    @Test
    void aMarkerWithoutADateMeansTodayInItsPipelinesZoneAndOnlyItReadsAConfig() {
        // 16:00 UTC on 2026-03-10 is already 01:00 on 2026-03-11 in Tokyo.
        Clock lateUtc = Clock.fixed(Instant.parse("2026-03-10T16:00:00Z"), ZoneOffset.UTC);
        List<String> read = new java.util.concurrent.CopyOnWriteArrayList<>();
        dev.interlock.model.pipeline.PipelineConfig tokyo =
                dev.interlock.model.json.InterlockJson.read("""
                {"name":"gold","archetype":"batch-ingestion","trigger":{"type":"http","url":"https://jobs.example.com/gold"},
                 "sla":{"timezone":"Asia/Tokyo"}}""", dev.interlock.model.pipeline.PipelineConfig.class);
        handler = handler(() -> client, new RouterSettings(STATE_MACHINE, 2), lateUtc, pipelineId -> {
            read.add(pipelineId);
            return java.util.Optional.of(tokyo);
        });

        assertThat(failed(route("markers-mixed.json"))).isEmpty();

        assertThat(stub.requests())
                .extracting(StepFunctionsStub.StartRequest::name)
                .containsExactly(
                        name("silver", "2026-03-10", "daily", "MARKER#cascade#bronze#run-1"),
                        name("gold", "2026-03-11", "daily", "MARKER#manual#m-1"));
        assertThat(stub.requests().get(1).input().path("date").asText()).isEqualTo("2026-03-11");
        assertThat(read).containsExactly("gold");
    }

    @Test
    void aRedeliveredBatchStartsNothingNewAndReportsNoFailure() {
        route("markers-mixed.json");
        StreamsEventResponse again = route("markers-mixed.json");

        assertThat(failed(again)).isEmpty();
        assertThat(stub.requests()).hasSize(4);
        assertThat(stub.executions()).hasSize(2);
    }

    @Test
    void aSecondMarkerOfTheSameDayAndScheduleStartsASecondExecution() {
        StreamsEventResponse response = route("markers-same-day.json");

        assertThat(failed(response)).isEmpty();
        assertThat(stub.executions())
                .containsExactlyInAnyOrder(
                        name("silver", "2026-03-10", "h07", "MARKER#external#2026-03-10T07:05:00Z"),
                        name("silver", "2026-03-10", "h07", "MARKER#external#2026-03-10T07:40:00Z"));
    }

    @Test
    void staleMarkersAreSkippedUnlessTheyReplay() {
        StreamsEventResponse response = route("markers-stale.json");

        assertThat(failed(response)).isEmpty();
        assertThat(stub.requests())
                .extracting(StepFunctionsStub.StartRequest::name)
                .containsExactly(
                        name("silver", "2026-03-07", "daily", "MARKER#rerun#rr-1"),
                        name("silver", "2026-03-08", "daily", "MARKER#cascade#bronze#edge"),
                        name("silver", "2026-03-11", "daily", "MARKER#manual#tomorrow"));
        assertThat(stub.requests().getFirst().input().get("replay").asBoolean()).isTrue();
        assertThat(stub.requests().getFirst().input().get("markerSource").asText())
                .isEqualTo("rerun");
    }

    @Test
    void markersThatCarryOnAnExecutionsWorkAreNeverStaleAndAMonitoringSuccessorResumesWithWhatItsMarkerCarried() {
        // Five days old with stale markers at two days: a monitoring window (up to 7 days) and a continued wait are
        // work an execution already started for their day, so both start.
        StreamsEventResponse response = route("markers-monitoring.json");

        assertThat(stub.requests())
                .extracting(StepFunctionsStub.StartRequest::name)
                .containsExactly(
                        name("silver", "2026-03-05", "daily", "MARKER#monitoring#silver_2026-03-05_daily_0000000a"),
                        name("silver", "2026-03-05", "daily", "MARKER#continuation#silver_2026-03-05_daily_0000000b"));
        JsonNode monitoring = stub.requests().getFirst().input();
        assertThat(monitoring.path("markerSource").asText()).isEqualTo("monitoring");
        assertThat(monitoring
                        .path("resolvePipeline")
                        .path("payload")
                        .path("runId")
                        .asText())
                .isEqualTo("run-1");
        assertThat(monitoring
                        .path("traitResults")
                        .get(0)
                        .path("value")
                        .path("rows")
                        .asInt())
                .isEqualTo(100);
        assertThat(monitoring
                        .path("logCompleted")
                        .path("payload")
                        .path("loggedAt")
                        .asText())
                .isEqualTo("2026-03-05T09:00:00.000Z");
        // The standard fields are written over whatever the marker carried.
        assertThat(monitoring.path("pipelineId").asText()).isEqualTo("silver");
        assertThat(stub.requests().get(1).input().has("traitResults")).isFalse();
        // A carried state that is not a JSON object starts nothing and is reported with the attribute's name.
        assertThat(failed(response)).containsExactly("3");
    }

    @Test
    void aStaleMarkerDaysSettingOfZeroSkipsEverythingBeforeToday() {
        handler = handler(() -> client, new RouterSettings(STATE_MACHINE, 0), CLOCK);

        route("markers-stale.json");

        assertThat(stub.requests())
                .extracting(StepFunctionsStub.StartRequest::name)
                .containsExactly(
                        name("silver", "2026-03-07", "daily", "MARKER#rerun#rr-1"),
                        name("silver", "2026-03-11", "daily", "MARKER#manual#tomorrow"));
    }

    @Test
    void onlyTheRecordsStepFunctionsRefusedAreReportedAndTheirRetrySucceeds() {
        String throttled = name("silver", "2026-03-10", "h07", "MARKER#external#2026-03-10T07:05:00Z");
        stub.fail(throttled, StepFunctionsStub.Failure.THROTTLED);
        DynamodbEvent batch = EventLoader.loadDynamoDbEvent("events/markers-mixed.json");
        DynamodbEvent sameDay = EventLoader.loadDynamoDbEvent("events/markers-same-day.json");
        batch.getRecords().addAll(sameDay.getRecords());
        String broken = name("gold", "2026-03-10", "daily", "MARKER#manual#m-1");
        stub.fail(broken, StepFunctionsStub.Failure.INTERNAL);

        StreamsEventResponse response = handler.handleRequest(batch, null);

        assertThat(failed(response)).containsExactly("200", "10");
        assertThat(stub.executions())
                .containsExactlyInAnyOrder(
                        name("silver", "2026-03-10", "daily", "MARKER#cascade#bronze#run-1"),
                        name("silver", "2026-03-10", "h07", "MARKER#external#2026-03-10T07:40:00Z"));

        stub.recover(throttled);
        stub.recover(broken);
        StreamsEventResponse retry = handler.handleRequest(batch, null);

        assertThat(failed(retry)).isEmpty();
        assertThat(stub.executions()).hasSize(4).contains(throttled, broken);
    }

    @Test
    void unreadableMarkersFailOnlyTheirOwnRecord() {
        StreamsEventResponse response = route("markers-malformed.json");

        assertThat(failed(response)).containsExactly("1", "2", "3", "4", "6", "7", "8");
        assertThat(stub.requests())
                .extracting(StepFunctionsStub.StartRequest::name)
                .containsExactly(name("silver", "2026-03-10", "daily", "MARKER#manual#e"));
    }

    @Test
    void unreadableMarkersOfAKnownPipelineAreSkippedWithAnEventNamingTheReasonAndOthersStillRun() {
        List<dev.interlock.model.event.Event> recorded = new java.util.ArrayList<>();
        handler = recordingSkips(() -> client, new RouterSettings(STATE_MACHINE, 2), CLOCK, e -> recorded.add(e));

        StreamsEventResponse response = route("markers-malformed.json");

        // Every record names its pipeline (PIPELINE#silver): each skip is an event, none goes back to the stream.
        assertThat(failed(response)).isEmpty();
        assertThat(stub.requests())
                .extracting(StepFunctionsStub.StartRequest::name)
                .containsExactly(name("silver", "2026-03-10", "daily", "MARKER#manual#e"));
        assertThat(recorded).hasSize(7).allSatisfy(e -> {
            assertThat(e.kind()).isEqualTo(dev.interlock.model.event.EventKind.MARKER_SKIPPED);
            assertThat(e.pipelineId()).isEqualTo("silver");
            assertThat(e.status()).isEqualTo("UNREADABLE");
            assertThat(e.timestamp()).isEqualTo(CLOCK.instant());
        });
        assertThat(recorded.get(1).message())
                .contains("MARKER#manual#b", "attribute date '10/03/2026' is not a date YYYY-MM-DD");
        assertThat(recorded.get(1).details())
                .containsEntry("markerSk", "MARKER#manual#b")
                .containsEntry("sequenceNumber", "2");
    }

    @Test
    void anUnreadableMarkerWhoseSkipCannotBeStoredGoesBackToTheStream() {
        handler = recordingSkips(() -> client, new RouterSettings(STATE_MACHINE, 2), CLOCK, e -> {
            throw new IllegalStateException("table unavailable");
        });

        StreamsEventResponse response = route("markers-malformed.json");

        assertThat(failed(response)).containsExactly("1", "2", "3", "4", "6", "7", "8");
    }

    @Test
    void staleMarkersLeaveASkipEventWithTheirReason() {
        List<dev.interlock.model.event.Event> recorded = new java.util.ArrayList<>();
        handler = recordingSkips(() -> client, new RouterSettings(STATE_MACHINE, 2), CLOCK, e -> recorded.add(e));

        route("markers-stale.json");

        assertThat(recorded).singleElement().satisfies(e -> {
            assertThat(e.kind()).isEqualTo(dev.interlock.model.event.EventKind.MARKER_SKIPPED);
            assertThat(e.status()).isEqualTo("STALE");
            assertThat(e.pipelineId()).isEqualTo("silver");
            assertThat(e.date()).isEqualTo(LocalDate.of(2026, 3, 7));
            assertThat(e.message()).contains("older than 2 days");
        });
    }

    @Test
    void aPausedPipelinesMarkersStartNothingAndLeaveASkipNamingThePauseWhileOthersRun() {
        List<dev.interlock.model.event.Event> recorded = new java.util.ArrayList<>();
        List<String> pausesRead = new java.util.ArrayList<>();
        dev.interlock.model.pause.Pause pause = new dev.interlock.model.pause.Pause(
                "silver",
                "source system in maintenance",
                "arn:aws:iam::1:user/ops",
                Instant.parse("2026-03-10T08:00:00Z"));
        handler = recordingSkips(
                () -> client, new RouterSettings(STATE_MACHINE, 2), CLOCK, e -> recorded.add(e), pipelineId -> {
                    pausesRead.add(pipelineId);
                    return pipelineId.equals("silver") ? java.util.Optional.of(pause) : java.util.Optional.empty();
                });

        assertThat(failed(route("markers-mixed.json"))).isEmpty();

        assertThat(stub.requests())
                .extracting(StepFunctionsStub.StartRequest::name)
                .containsExactly(name("gold", "2026-03-10", "daily", "MARKER#manual#m-1"));
        assertThat(recorded).singleElement().satisfies(e -> {
            assertThat(e.kind()).isEqualTo(dev.interlock.model.event.EventKind.MARKER_SKIPPED);
            assertThat(e.status()).isEqualTo("PAUSED");
            assertThat(e.pipelineId()).isEqualTo("silver");
            assertThat(e.date()).isEqualTo(LocalDate.of(2026, 3, 10));
            assertThat(e.message())
                    .contains("MARKER#cascade#bronze#run-1")
                    .contains("paused since 2026-03-10T08:00:00Z by arn:aws:iam::1:user/ops")
                    .contains("source system in maintenance");
            assertThat(e.details()).containsEntry("pausedBy", "arn:aws:iam::1:user/ops");
        });
        assertThat(pausesRead).as("one read per pipeline and batch").doesNotHaveDuplicates();
    }

    @Test
    void aPauseLetsTheContinuationsOfDaysAlreadyRunningFinish() {
        List<dev.interlock.model.event.Event> recorded = new java.util.ArrayList<>();
        dev.interlock.model.pause.Pause pause = new dev.interlock.model.pause.Pause(
                "silver", "maintenance", "local", Instant.parse("2026-03-05T08:00:00Z"));
        handler = recordingSkips(
                () -> client,
                new RouterSettings(STATE_MACHINE, 2),
                CLOCK,
                e -> recorded.add(e),
                pipelineId -> java.util.Optional.of(pause));

        route("markers-monitoring.json");

        assertThat(stub.requests()).hasSize(2);
        assertThat(recorded).noneMatch(e -> "PAUSED".equals(e.status()));
    }

    @Test
    void unreadableMarkersAreNamedPrecisely() {
        DynamodbEvent event = EventLoader.loadDynamoDbEvent("events/markers-malformed.json");
        LocalDate today = LocalDate.of(2026, 3, 10);

        List<String> reasons = event.getRecords().stream()
                .map(r -> MarkerRecord.read(r, dev.interlock.model.runtime.TableDefinition.INTERLOCK, today))
                .map(reading -> reading instanceof MarkerRecord.Unreadable u
                        ? u.reason()
                        : reading.getClass().getSimpleName())
                .toList();

        assertThat(reasons)
                .containsExactly(
                        "attribute scheduleId must be a string (S), got N 7",
                        "attribute date '10/03/2026' is not a date YYYY-MM-DD",
                        "attribute replay must be a boolean (BOOL), got N 1",
                        "attribute pipelineId 'gold' disagrees with the partition key PIPELINE#silver",
                        "Routable",
                        "attribute scheduleId 'h#07' must match "
                                + dev.interlock.model.validation.PipelineValidation.SCHEDULE_NAME.pattern(),
                        "the marker insert carries no NewImage (the stream must include new images)",
                        "attribute date must be a string (S), got M");
    }

    @Test
    void theGoOriginalsMarkerAttributesAreReadCaseInsensitively() {
        StreamsEventResponse response = route("markers-go-original.json");

        assertThat(failed(response)).isEmpty();
        StepFunctionsStub.StartRequest request = stub.requests().getFirst();
        assertThat(request.name()).isEqualTo(name("gold", "2026-03-10", "h14", "MARKER#cascade#silver#1773133200123"));
        assertThat(request.input())
                .isEqualTo(InterlockJson.tree(Map.of(
                        "pipelineId",
                        "gold",
                        "scheduleId",
                        "h14",
                        "date",
                        "2026-03-10",
                        "markerSource",
                        "silver",
                        "replay",
                        false)));
    }

    @Test
    void aBatchWithoutMarkersNeverCreatesAStepFunctionsClient() {
        DynamodbEvent event = EventLoader.loadDynamoDbEvent("events/markers-mixed.json");
        event.setRecords(event.getRecords().subList(2, 5));

        StreamsEventResponse response = handler.handleRequest(event, null);

        assertThat(failed(response)).isEmpty();
        assertThat(clientsRequested).hasValue(0);
        assertThat(handler.handleRequest(new DynamodbEvent(), null).getBatchItemFailures())
                .isEmpty();
    }

    /** A handler over a router built by hand: a marker without a date means today in UTC; skips are recorded nowhere. */
    private static StreamRouterHandler handler(
            Supplier<SfnClient> stepFunctions, RouterSettings settings, Clock clock) {
        return handler(stepFunctions, settings, clock, pipelineId -> Optional.empty());
    }

    /** ... with the pipelines a marker without a date takes its zone from. */
    private static StreamRouterHandler handler(
            Supplier<SfnClient> stepFunctions,
            RouterSettings settings,
            Clock clock,
            Function<String, Optional<PipelineConfig>> pipelines) {
        return router(
                stepFunctions,
                settings,
                clock,
                pipelines,
                MarkerRouter.SkipLog.NOWHERE,
                pipelineId -> Optional.empty());
    }

    /** ... with where the markers that start nothing are recorded. */
    private static StreamRouterHandler recordingSkips(
            Supplier<SfnClient> stepFunctions, RouterSettings settings, Clock clock, MarkerRouter.SkipLog skips) {
        return recordingSkips(stepFunctions, settings, clock, skips, pipelineId -> Optional.empty());
    }

    /** ... and the pipelines' pauses. */
    private static StreamRouterHandler recordingSkips(
            Supplier<SfnClient> stepFunctions,
            RouterSettings settings,
            Clock clock,
            MarkerRouter.SkipLog skips,
            Function<String, Optional<Pause>> pauses) {
        return router(stepFunctions, settings, clock, pipelineId -> Optional.empty(), skips, pauses);
    }

    private static StreamRouterHandler router(
            Supplier<SfnClient> stepFunctions,
            RouterSettings settings,
            Clock clock,
            Function<String, Optional<PipelineConfig>> pipelines,
            MarkerRouter.SkipLog skips,
            Function<String, Optional<Pause>> pauses) {
        StructuredLog log = StructuredLog.forName("stream-router");
        return new StreamRouterHandler(new StreamDispatch(
                new MarkerRouter(
                        new ExecutionStarter(stepFunctions, settings.stateMachineArn()),
                        settings,
                        clock,
                        log,
                        pipelines,
                        skips,
                        pauses),
                LineageEmitter.NONE,
                log));
    }
}
