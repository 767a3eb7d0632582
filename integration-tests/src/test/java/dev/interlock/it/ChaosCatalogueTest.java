package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.local.demo.FakeJobServer;
import dev.interlock.local.runtime.FunctionSet;
import dev.interlock.local.runtime.LocalRuntime;
import dev.interlock.local.runtime.ProductionFunctions;
import dev.interlock.wiring.Deps;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * The chaos catalogue: one test per real-world failure, named after it, each showing what an on-call engineer sees
 * (run log, job starts, events, alerts, executions) through the public endpoints — the HTTP API, the CLI, the AWS
 * SDK against the local runtime. Where a scenario has a deeper suite of its own, the test's comment names it; this
 * class is where to look a scenario up.
 *
 * <p>The faults come from outside the product: a fake job server whose runs fail or last hours, an HTTP evaluator
 * that flaps, marker items written with the SDK (a malformed one among them), and a stream-router invocation whose
 * answer is lost so that the stream delivers the same marker again. Scenario 11, DynamoDB throttling during a CAS race,
 * is {@link DynamoDbThrottlingChaosTest}: it needs a slower product clock than this class's. Restarts of the runtime
 * on its data directory mid-wait and mid-trigger are {@link RestartsLoseNoWaitEndToEndTest}; mid-start of a Glue, EMR,
 * EMR Serverless or Step Functions job (the job fake holding the call, before or after it accepted the start, and
 * restarts twice) {@link CrashBetweenClaimAndRecordEndToEndTest}; a real {@code kill -9} of {@code interlock up} (a
 * child process) while a fleet of cascades runs, twice, is {@link KillNineFleetTest}. A job ending after its
 * execution was aborted (event delivered or lost), a job succeeding after its day was logged FAILED and a callback job
 * past its maximum are {@link JobEndAfterExecutionEndToEndTest}. An operator's unlock of a live holder and a holder
 * whose lock was taken are {@link LockFencingEndToEndTest}. Validation windows
 * longer than one execution (data at +4 h 30 of a {@code +6h} window, data that never comes) are
 * {@link LongValidationWindowEndToEndTest}: six scaled hours each.
 * Permanent evaluator errors and never-allowed URLs are {@link PermanentErrorEndToEndTest}; a dry run as a shadow is
 * {@link DryRunShadowEndToEndTest}. Reruns and evaluations of a day while its monitoring waits (outside the lock) are
 * {@link MonitoringOutsideTheLockEndToEndTest}; monitoring windows longer than one execution (drift five hours into an
 * 8 h window, a window watched to its end) are {@link MonitoringBeyondOneExecutionEndToEndTest}.
 * A lock holder aborted while its execution-end event is lost, released by the watchdog's next tick, is
 * {@link DeadHolderWatchdogEndToEndTest}.
 */
class ChaosCatalogueTest extends EndToEnd {

    /** Pipelines whose marker records get their router answer "lost" once, so the stream delivers them again. */
    private final java.util.Set<String> loseRouterAnswerOnce = ConcurrentHashMap.newKeySet();
    /** How many times the stream router was handed a marker of each pipeline. */
    private final Map<String, AtomicInteger> markerDeliveries = new ConcurrentHashMap<>();

    private final AtomicInteger flappingCalls = new AtomicInteger();

    @Override
    Duration asyncJobDuration() {
        return Duration.ofMinutes(10);
    }

    @Override
    FunctionSet functions() {
        return new ProductionFunctions() {
            @Override
            public RequestHandler<DynamodbEvent, StreamsEventResponse> streamRouter(Deps deps) {
                RequestHandler<DynamodbEvent, StreamsEventResponse> router = super.streamRouter(deps);
                return (event, context) -> {
                    StreamsEventResponse answer = router.handleRequest(event, context);
                    List<StreamsEventResponse.BatchItemFailure> failures =
                            new ArrayList<>(answer.getBatchItemFailures());
                    for (DynamodbEvent.DynamodbStreamRecord r : event.getRecords()) {
                        String pk = r.getDynamodb().getKeys().get("PK").getS();
                        String pipeline = pk.substring(pk.indexOf('#') + 1);
                        markerDeliveries
                                .computeIfAbsent(pipeline, k -> new AtomicInteger())
                                .incrementAndGet();
                        // The function handled the record, then its answer was lost (a timeout, a crash on the way
                        // out): the mapping delivers the record again.
                        if (loseRouterAnswerOnce.remove(pipeline)) {
                            failures.add(new StreamsEventResponse.BatchItemFailure(
                                    r.getDynamodb().getSequenceNumber()));
                        }
                    }
                    return new StreamsEventResponse(failures);
                };
            }
        };
    }

    private String passing(String name, String trigger, String extra) {
        return """
                name: %s
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: %s
                %s
                """.formatted(name, trigger, extra);
    }

    private String http(String job) {
        return "{type: http, url: \"" + jobs.endpoint() + "/jobs/" + job + "\"}";
    }

    private String airflow(String dag) {
        return "{type: airflow, url: \"" + jobs.endpoint() + "\", dagId: " + dag + "}";
    }

    private static List<String> texts(JsonNode array, String field) {
        return StreamSupport.stream(array.spliterator(), false)
                .map(n -> field == null ? n.asText() : n.path(field).asText())
                .toList();
    }

    /** A producer writing a marker item itself (docs/table-design.md), attribute by attribute. */
    private void writeMarker(String pipeline, String suffix, Map<String, AttributeValue> attributes) {
        Map<String, AttributeValue> item = new java.util.HashMap<>(attributes);
        item.put("PK", AttributeValue.fromS("PIPELINE#" + pipeline));
        item.put("SK", AttributeValue.fromS("MARKER#external#" + suffix));
        try (DynamoDbClient db = dynamoDb()) {
            db.putItem(b -> b.tableName(LocalRuntime.TABLE_NAME).item(item));
        }
    }

    // ---- 1. data arriving after the validation deadline ----

    /** Deeper: {@code AttemptsEndToEndTest}. Here the late data itself (a sensor write) brings the day back. */
    @Test
    void dataArrivingAfterTheValidationDeadlineStillRunsTheDayWhenItLands() {
        LocalDate date = today();
        sensor("chaos-late-src", "{\"count\":10}");
        // The validation deadline is one minute after the window opened at midnight: long gone at 06:00.
        putPipeline("""
                name: chaos-late
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:sensor-threshold", config: {sensor: chaos-late-src, field: count, op: gte, value: 1000}}
                trigger: %s
                retry: {maxAttempts: 1}
                sla: {validationTimeout: "1m"}
                """.formatted(http("chaos-late")));
        String first = evaluate("chaos-late", date);
        assertThat(awaitDone(first)).isEqualTo(ExecutionStatus.FAILED);
        JsonNode exhausted = runLog("chaos-late", date, "daily");
        assertThat(exhausted.path("failureCategory").asText()).isEqualTo("VALIDATION_EXHAUSTED");
        assertThat(exhausted.path("attemptNumber").asInt())
                .as("waiting for data is no attempt")
                .isZero();

        // The data lands hours late: its arrival alone starts the day's evaluation, which runs the job.
        JsonNode arrival = expect(200, "PUT", "/sensors/chaos-late-src", "application/json", "{\"count\":1500}");
        String second = arrival.path("evaluations").get(0).path("executionName").asText();

        assertThat(awaitDone(second)).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(jobs.triggersOf("chaos-late")).isEqualTo(1);
        JsonNode completed = runLog("chaos-late", date, "daily");
        assertThat(completed.path("status").asText()).isEqualTo("COMPLETED");
        assertThat(texts(completed.path("retryHistory"), "status")).containsExactly("FAILED", "COMPLETED");
        // The missed deadline is told once, as an alert; it cost no attempt (maxAttempts is 1).
        assertThat(alertKinds("chaos-late")).containsExactly("VALIDATION_EXHAUSTED");
    }

    // ---- 2. upstreams completing out of order for a two-upstream join ----

    /** Deeper: {@code CascadeTopologyTest}. Here the upstream started first finishes last. */
    @Test
    void upstreamsCompletingOutOfOrderTriggerTheJoinOnceAfterBoth() {
        LocalDate date = today();
        jobs.durationOf("chaos_join_slow", Duration.ofHours(1));
        jobs.durationOf("chaos_join_fast", Duration.ofMinutes(5));
        putPipeline(passing("chaos-join-slow", airflow("chaos_join_slow"), "pollIntervalSeconds: 60\npollLimit: 200"));
        putPipeline(passing("chaos-join-fast", airflow("chaos_join_fast"), "pollIntervalSeconds: 60\npollLimit: 200"));
        putPipeline("""
                name: chaos-join
                archetype: batch-ingestion
                traits:
                  upstream-dependency: {evaluator: "builtin:upstream-run-log", config: {upstreamPipeline: chaos-join-slow}}
                  source-freshness: {evaluator: "builtin:upstream-run-log", config: {upstreamPipeline: chaos-join-fast}}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: %s
                evaluationIntervalSeconds: 60
                """.formatted(http("chaos-join")));

        evaluate("chaos-join-slow", date);
        await("the slow upstream's job started", () -> jobs.triggersOf("chaos_join_slow"), n -> n == 1);
        evaluate("chaos-join-fast", date);

        // The fast upstream completes first: its cascade starts the join, which waits for the slow one.
        await("the fast upstream completed", () -> runLogStatus("chaos-join-fast", date, "daily"), "COMPLETED"::equals);
        await("the join evaluated NOT READY", () -> eventsOf("chaos-join", "READINESS_CHECKED"), l -> !l.isEmpty());
        assertThat(runLogStatus("chaos-join-slow", date, "daily")).isNotEqualTo("COMPLETED");
        assertThat(jobs.triggersOf("chaos-join")).isZero();

        await(
                "the join completed",
                () -> runLogStatus("chaos-join", date, "daily"),
                "COMPLETED"::equals,
                Duration.ofMinutes(2));
        // One join execution per upstream's cascade: the slow one's marker may reach the join after its holder already
        // completed the day (it becomes ready on the slow upstream's run log, written before its cascade), so its
        // execution is awaited by count, not by what happens to be listed now.
        List<ExecutionListItem> joins = awaitExecutionsDone("chaos-join", 2);
        assertThat(joins).allSatisfy(e -> assertThat(e.status()).isEqualTo(ExecutionStatus.SUCCEEDED));
        assertThat(jobs.triggersOf("chaos-join")).isEqualTo(1);
        List<String> order =
                jobs.received().stream().map(FakeJobServer.Received::job).toList();
        assertThat(order.indexOf("chaos-join")).isGreaterThan(order.indexOf("chaos_join_fast"));
        assertThat(runs("chaos-join"))
                .extracting(r -> r.path("status").asText())
                .containsExactly("COMPLETED");
        assertThat(eventsOf("chaos-join", "READINESS_CHECKED"))
                .extracting(e -> e.path("status").asText())
                .startsWith("NOT_READY")
                .endsWith("READY");
        assertThat(alerts("chaos-join")).isEmpty();
    }

    // ---- 3. the same marker delivered twice ----

    /** Deeper: {@code IdempotencyTest}. Here the stream itself delivers the marker again, as Lambda does after a lost answer. */
    @Test
    void theSameMarkerDeliveredTwiceByTheStreamStartsOneExecutionAndOneJob() {
        LocalDate date = today();
        putPipeline(passing("chaos-twice", airflow("chaos_twice"), "pollIntervalSeconds: 30"));
        loseRouterAnswerOnce.add("chaos-twice");
        writeMarker(
                "chaos-twice",
                "producer-1",
                Map.of(
                        "pipelineId",
                        AttributeValue.fromS("chaos-twice"),
                        "date",
                        AttributeValue.fromS(date.toString()),
                        "source",
                        AttributeValue.fromS("external")));

        await(
                "the marker delivered twice",
                () -> markerDeliveries
                        .getOrDefault("chaos-twice", new AtomicInteger())
                        .get(),
                n -> n >= 2);
        List<ExecutionListItem> done = awaitExecutionsDone("chaos-twice", 1);

        assertThat(done).singleElement().satisfies(e -> assertThat(e.status()).isEqualTo(ExecutionStatus.SUCCEEDED));
        assertThat(jobs.triggersOf("chaos_twice")).isEqualTo(1);
        assertThat(eventsOf("chaos-twice", "TRIGGER_FIRED")).hasSize(1);
        assertThat(runs("chaos-twice"))
                .extracting(r -> r.path("status").asText())
                .containsExactly("COMPLETED");
        assertThat(runLogStatus("chaos-twice", date, "daily")).isEqualTo("COMPLETED");
        assertThat(alerts("chaos-twice")).isEmpty();
    }

    // ---- 4. a replay arriving while monitoring ----

    /** Deeper: {@code LockEndToEndTest}. Here the replay is a producer's marker item, not an API rerun. */
    @Test
    void aReplayArrivingWhileMonitoringRunsAtOnceBecauseMonitoringHoldsNoLock() {
        LocalDate date = today();
        putPipeline(passing("chaos-replay", http("chaos-replay"), "monitoring: {enabled: true, duration: 20m}"));
        String holder = evaluate("chaos-replay", date);
        await("the first run completed", () -> runLogStatus("chaos-replay", date, "daily"), "COMPLETED"::equals);
        assertThat(status(arnOf(holder))).as("the holder still monitors").isEqualTo(ExecutionStatus.RUNNING);

        writeMarker(
                "chaos-replay",
                "replay-1",
                Map.of(
                        "pipelineId",
                        AttributeValue.fromS("chaos-replay"),
                        "date",
                        AttributeValue.fromS(date.toString()),
                        "source",
                        AttributeValue.fromS("external"),
                        "replay",
                        AttributeValue.fromBool(true)));

        List<ExecutionListItem> done = awaitExecutionsDone("chaos-replay", 2);
        assertThat(done).allSatisfy(e -> assertThat(e.status()).isEqualTo(ExecutionStatus.SUCCEEDED));
        String replay = done.get(1).name();
        assertThat(input(arnOf(replay)).path("replay").asBoolean()).isTrue();
        // Not dropped, and not kept waiting: the holder released the day's lock before its first monitoring wait, so
        // the
        // replay takes it at once, and the holder's monitoring stops once the replay's run supersedes its own.
        assertThat(visited(arnOf(replay)))
                .doesNotContain("WaitForLock")
                .containsSubsequence("AcquireLock", "CheckRunLog", "TriggerPipeline", "LogCompleted");
        assertThat(eventsOf("chaos-replay", "MARKER_DEFERRED")).isEmpty();
        assertThat(jobs.triggersOf("chaos-replay")).isEqualTo(2);
        assertThat(texts(runLog("chaos-replay", date, "daily").path("retryHistory"), "status"))
                .containsExactly("COMPLETED", "COMPLETED");
        assertThat(alerts("chaos-replay")).isEmpty();
    }

    // ---- 5. a job running three times its poll window ----

    /** Deeper: {@code JobFollowingEndToEndTest}. */
    @Test
    void aJobRunningThreeTimesItsPollWindowIsStartedOnceAndRecordedAsTheSuccessItWas() {
        LocalDate date = today();
        // Poll window: 4 polls of 60 s; the DAG run takes three windows.
        jobs.durationOf("chaos_long", Duration.ofMinutes(12));
        putPipeline(passing(
                "chaos-long",
                airflow("chaos_long"),
                "pollIntervalSeconds: 60\npollLimit: 4\nretry: {maxAttempts: 3, backoffSeconds: 30}"));
        String name = evaluate("chaos-long", date);

        assertThat(awaitDone(name)).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(jobs.triggersOf("chaos_long"))
                .as("never a second start beside the running one")
                .isEqualTo(1);
        assertThat(jobs.cancellations()).noneMatch(c -> c.dag().equals("chaos_long"));
        assertThat(eventsOf("chaos-long", "RUN_OVERDUE")).isNotEmpty();
        assertThat(eventKinds("chaos-long")).doesNotContain("RETRY_SCHEDULED", "RUN_CANCEL_REQUESTED");
        assertThat(runs("chaos-long"))
                .extracting(r -> r.path("status").asText())
                .containsExactly("COMPLETED");
        assertThat(runLogStatus("chaos-long", date, "daily")).isEqualTo("COMPLETED");
        assertThat(alerts("chaos-long")).isEmpty();
    }

    // ---- 6. a job killed midway ----

    /** Deeper: {@code RetryEndToEndTest}. Here the provider reports the running job FAILED part-way. */
    @Test
    void aJobKilledMidwayIsRecordedFailedAndRetriedOnceWithoutARunningTwin() {
        LocalDate date = today();
        jobs.failRunsOf("chaos_killed", true);
        putPipeline(passing(
                "chaos-killed",
                airflow("chaos_killed"),
                "pollIntervalSeconds: 30\nretry: {maxAttempts: 2, backoffSeconds: 60}"));
        String name = evaluate("chaos-killed", date);
        await("the first run started", () -> jobs.triggersOf("chaos_killed"), n -> n == 1);
        // The operator fixed the cluster: the retry's run will succeed.
        jobs.failRunsOf("chaos_killed", false);

        assertThat(awaitDone(name)).isEqualTo(ExecutionStatus.SUCCEEDED);
        List<FakeJobServer.Received> starts = jobs.received().stream()
                .filter(r -> r.job().equals("chaos_killed"))
                .toList();
        assertThat(starts).hasSize(2);
        assertThat(Duration.between(starts.get(0).at(), starts.get(1).at()))
                .as("the retry starts after the first run failed")
                .isGreaterThanOrEqualTo(asyncJobDuration());
        JsonNode log = runLog("chaos-killed", date, "daily");
        assertThat(log.path("status").asText()).isEqualTo("COMPLETED");
        assertThat(texts(log.path("retryHistory"), "status")).containsExactly("FAILED", "COMPLETED");
        assertThat(runs("chaos-killed"))
                .extracting(r -> r.path("status").asText())
                .containsExactlyInAnyOrder("FAILED", "COMPLETED");
        assertThat(eventsOf("chaos-killed", "RETRY_SCHEDULED")).hasSize(1);
        assertThat(alerts("chaos-killed")).isEmpty();
    }

    // ---- 7. an evaluator that flaps PASS/FAIL ----

    /** Deeper: {@code DriftEndToEndTest}. */
    @Test
    void anEvaluatorFlappingPassFailTriggersOncePerDayAndItsFlipsStayWithinTheRerunBudget() throws IOException {
        LocalDate date = today();
        String url = evaluator(
                "/check", path -> EvaluatorAnswer.of(flappingCalls.getAndIncrement() % 2 == 0 ? "FAIL" : "PASS"));
        putPipeline("""
                name: chaos-flap
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "%s"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: %s
                evaluationIntervalSeconds: 60
                monitoring: {enabled: true, duration: 30m}
                """.formatted(url, http("chaos-flap")));
        String first = evaluate("chaos-flap", date);

        awaitDone(first);
        await(
                "every rerun finished",
                () -> {
                    List<ExecutionListItem> all = executions("chaos-flap");
                    return all.stream().noneMatch(e -> e.status() == ExecutionStatus.RUNNING) ? all : null;
                },
                l -> l != null,
                Duration.ofMinutes(2));
        List<ExecutionListItem> all = executions("chaos-flap");
        assertThat(all).allSatisfy(e -> assertThat(e.status()).isEqualTo(ExecutionStatus.SUCCEEDED));
        // Before its run a FAIL only delays the day (NOT READY, then READY on the next PASS).
        assertThat(eventsOf("chaos-flap", "READINESS_CHECKED"))
                .extracting(e -> e.path("status").asText())
                .startsWith("NOT_READY", "READY");
        // After it, FAIL -> PASS looks like new data: reruns, bounded by the day's budget (3); the rest are recorded
        // as skipped, never run, and the day is never turned FAILED by a flip.
        List<JsonNode> reruns = list("/pipelines/chaos-flap/reruns");
        long ran = reruns.stream()
                .filter(r -> r.path("status").asText().equals("COMPLETED"))
                .count();
        assertThat(ran).isLessThanOrEqualTo(3);
        assertThat(reruns).allSatisfy(r -> assertThat(r.path("status").asText()).isIn("COMPLETED", "SKIPPED"));
        assertThat(reruns)
                .filteredOn(r -> r.path("status").asText().equals("SKIPPED"))
                .allSatisfy(r -> assertThat(r.path("statusReason").asText()).isNotBlank());
        assertThat(jobs.triggersOf("chaos-flap")).isEqualTo(1 + ran);
        assertThat(all).hasSize((int) (1 + ran));
        assertThat(runLogStatus("chaos-flap", date, "daily")).isEqualTo("COMPLETED");
        assertThat(alertKinds("chaos-flap"))
                .doesNotContain("EXECUTION_ERROR", "RETRY_EXHAUSTED", "VALIDATION_EXHAUSTED");
    }

    // ---- 8. a pipeline in a non-UTC zone evaluated around its local midnight ----

    /** Deeper: {@code LocalMidnightTest} (requests and markers without a date in Tokyo and Los Angeles). */
    @Test
    void aPipelineInANonUtcZoneIsJudgedByItsLocalDateAroundItsLocalMidnight() {
        LocalTime utc = LocalTime.now(rt.clock());
        LocalDate utcDate = today();
        // Two zones chosen from the clock: in one it is about 23:00, in the other about 01:00 — west of UTC (the day
        // before) or east of it (the day after) where such a zone exists, so at least one local date is not UTC's.
        ZoneOffset beforeMidnight = offsetWhereItIs(utc, 23);
        ZoneOffset afterMidnight = offsetWhereItIs(utc, 1);
        LocalDate lateEvening = LocalDate.now(rt.clock().withZone(beforeMidnight));
        LocalDate earlyMorning = LocalDate.now(rt.clock().withZone(afterMidnight));
        assertThat(List.of(lateEvening, earlyMorning))
                .as(utc + " UTC: " + beforeMidnight + ", " + afterMidnight)
                .anyMatch(d -> !d.equals(utcDate));
        putPipeline(passing(
                "chaos-evening",
                http("chaos-evening"),
                "catchUp: true\nschedules: [{name: daily, after: \"22:00\", timezone: \"" + beforeMidnight.getId()
                        + "\"}]"));
        putPipeline(passing(
                "chaos-morning",
                http("chaos-morning"),
                "catchUp: true\nschedules: [{name: daily, after: \"00:00\", timezone: \"" + afterMidnight.getId()
                        + "\"}]"));

        JsonNode tick = invokeWatchdog().path("payload");

        assertThat(texts(tick.path("markersWritten"), null))
                .contains("chaos-evening/daily/" + lateEvening, "chaos-morning/daily/" + earlyMorning);
        await(
                "both days completed",
                () -> runLogStatus("chaos-evening", lateEvening, "daily")
                        + runLogStatus("chaos-morning", earlyMorning, "daily"),
                "COMPLETEDCOMPLETED"::equals);
        assertThat(runLogs("chaos-evening"))
                .extracting(l -> l.path("date").asText())
                .containsExactly(lateEvening.toString());
        assertThat(runLogs("chaos-morning"))
                .extracting(l -> l.path("date").asText())
                .containsExactly(earlyMorning.toString());
        // An evaluation requested without a date means the local date too.
        JsonNode asked = expect(202, "POST", "/pipelines/chaos-evening/evaluations", "application/json", "{}");
        assertThat(asked.path("marker").path("date").asText()).isEqualTo(lateEvening.toString());
        awaitDone(asked.path("executionName").asText());
        assertThat(jobs.triggersOf("chaos-evening")).isEqualTo(1);
        assertThat(jobs.triggersOf("chaos-morning")).isEqualTo(1);
        assertThat(alerts("chaos-evening")).isEmpty();
    }

    /**
     * The offset (whole quarter hours, as real zones have) where the local time is within 8 minutes of
     * {@code localHour}:00 at UTC time {@code utc}: the scenario has about an hour of scaled time on either side.
     */
    private static ZoneOffset offsetWhereItIs(LocalTime utc, int localHour) {
        int now = utc.getHour() * 60 + utc.getMinute();
        // 23:00 is preferably yesterday's (west), 01:00 tomorrow's (east); real offsets run from -12:00 to +14:00.
        int minutes = localHour >= 12 ? localHour * 60 - 24 * 60 - now : localHour * 60 + 24 * 60 - now;
        if (minutes < -12 * 60) {
            minutes += 24 * 60;
        } else if (minutes > 14 * 60) {
            minutes -= 24 * 60;
        }
        return ZoneOffset.ofTotalSeconds(Math.round(minutes / 15f) * 15 * 60);
    }

    // ---- 9. a calendar typo ----

    /** Deeper: {@code ConfigurationReferencesTest} (the API, archetype and calendar changes). Here through the CLI. */
    @Test
    void aCalendarTypoIsRefusedByTheCliWithItsPathAndNothingIsRegistered() throws IOException {
        expect(
                201,
                "PUT",
                "/calendars/chaos-holidays",
                "application/yaml",
                "name: chaos-holidays\ndates: [\"2026-12-25\"]\n");
        Path file = Files.createTempFile("chaos-typo", ".yaml");
        try {
            Files.writeString(
                    file, passing("chaos-typo", http("chaos-typo"), "exclusions: {calendar: chaos-holidyas}"));

            Cli result = cli(
                    "apply",
                    "-f",
                    file.toString(),
                    "--endpoint",
                    rt.apiEndpoint().toString(),
                    "--no-sigv4");

            assertThat(result.code()).isEqualTo(1);
            assertThat(result.out() + result.err())
                    .contains("$.exclusions.calendar")
                    .contains("chaos-holidyas");
            assertThat(call("GET", "/pipelines/chaos-typo", null, null).status())
                    .isEqualTo(404);
            assertThat(events("chaos-typo")).isEmpty();
        } finally {
            Files.deleteIfExists(file);
        }
    }

    // ---- 10. a poison record in the stream ----

    @Test
    void aPoisonMarkerInTheStreamIsSkippedWithAnEventAndTheMarkersAroundItRunOnce() {
        LocalDate date = today();
        putPipeline(passing("chaos-poison", http("chaos-poison"), ""));
        // A producer's bad write between two good ones: a date that is no date.
        writeMarker(
                "chaos-poison",
                "good-1",
                Map.of("date", AttributeValue.fromS(date.toString()), "source", AttributeValue.fromS("external")));
        writeMarker(
                "chaos-poison",
                "bad",
                Map.of("date", AttributeValue.fromS("2026-02-30"), "source", AttributeValue.fromS("external")));
        writeMarker(
                "chaos-poison",
                "good-2",
                Map.of("date", AttributeValue.fromS(date.toString()), "source", AttributeValue.fromS("external")));

        JsonNode skipped = await(
                        "the poison marker's event",
                        () -> eventsOf("chaos-poison", "MARKER_SKIPPED"),
                        l -> !l.isEmpty())
                .getFirst();
        assertThat(skipped.path("status").asText()).isEqualTo("UNREADABLE");
        assertThat(skipped.path("message").asText()).contains("2026-02-30");
        assertThat(skipped.path("details").path("markerSk").asText()).isEqualTo("MARKER#external#bad");

        // Nothing lost: both good markers started their execution; nothing ran twice: one job for the day.
        List<ExecutionListItem> done = awaitExecutionsDone("chaos-poison", 2);
        assertThat(done).allSatisfy(e -> assertThat(e.status()).isEqualTo(ExecutionStatus.SUCCEEDED));
        assertThat(jobs.triggersOf("chaos-poison")).isEqualTo(1);
        assertThat(runLogStatus("chaos-poison", date, "daily")).isEqualTo("COMPLETED");
        assertThat(eventsOf("chaos-poison", "MARKER_SKIPPED")).hasSize(1);
        assertThat(rt.deadLetters()).isEmpty();
    }

    // ---- 11. DynamoDB throttling during a CAS race: its own class, DynamoDbThrottlingChaosTest (a slower clock) ----
}
