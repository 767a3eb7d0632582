package dev.interlock.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.keys.LockKey;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.model.trait.TraitResult;
import dev.interlock.model.trait.TraitStatus;
import dev.interlock.model.trigger.TriggerType;
import dev.interlock.model.workflow.AttemptLedger;
import dev.interlock.store.RunLogKey;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The status and timeline routes as an on-call engineer reads them: why a day is where it is, and nothing written. */
class StatusRoutesTest {

    private static final LocalDate DAY = LocalDate.of(2026, 3, 10);
    private static final Instant NOW = ApiFixture.NOW;
    private final ApiFixture api = new ApiFixture();

    private void register(String name) {
        assertThat(api.call("PUT", "/pipelines/" + name, ApiFixture.pipeline(name))
                        .status())
                .isIn(200, 201);
    }

    private void notReady(String pipeline) {
        String runId = "run-" + pipeline;
        api.store
                .runs()
                .create(new RunState(
                        runId,
                        pipeline,
                        "daily",
                        DAY,
                        RunStatus.PENDING,
                        1,
                        TriggerType.GLUE,
                        "exec-1",
                        Map.of(),
                        null,
                        null,
                        NOW.minusSeconds(120),
                        NOW.minusSeconds(120)));
        api.store
                .runLogs()
                .update(
                        new RunLogKey(pipeline, DAY, "daily"),
                        current -> new RunLog(
                                pipeline,
                                DAY,
                                "daily",
                                RunLogStatus.PENDING,
                                0,
                                runId,
                                "exec-1",
                                null,
                                null,
                                List.of(),
                                false,
                                NOW.minusSeconds(120),
                                null,
                                NOW.minusSeconds(120)));
        api.store
                .traits()
                .put(new TraitResult(
                        pipeline,
                        "daily",
                        DAY,
                        "source-freshness",
                        TraitStatus.FAIL,
                        Map.of("ageSeconds", 5400),
                        "orders is 5400 s old (max 900)",
                        null,
                        true,
                        NOW.minusSeconds(20),
                        null));
        api.store
                .traits()
                .put(new TraitResult(
                        pipeline,
                        "daily",
                        DAY,
                        "resource-availability",
                        TraitStatus.PASS,
                        Map.of(),
                        "ok",
                        null,
                        true,
                        NOW.minusSeconds(20),
                        null));
        api.store.locks().acquire(new LockKey(pipeline, "daily", DAY), "exec-1", Duration.ofHours(5));
    }

    @Test
    void aNotReadyDayNamesItsBlockingTraitWithTheObservedValueAndTheNextReEvaluation() {
        register("silver");
        assertThat(api.store.pipelines().delete("bronze")).isTrue();
        notReady("silver");
        api.recording.clear();

        ApiFixture.Reply reply =
                api.call("GET", "/pipelines/silver/status", null, null, Map.of("date", DAY.toString()));

        assertThat(reply.status()).isEqualTo(200);
        JsonNode status = reply.json();
        assertThat(status.path("pipelineId").asText()).isEqualTo("silver");
        assertThat(status.path("date").asText()).isEqualTo("2026-03-10");
        JsonNode daily = status.path("schedules").get(0);
        assertThat(daily.path("scheduleId").asText()).isEqualTo("daily");
        assertThat(daily.path("state").asText()).isEqualTo("NOT_READY");
        assertThat(daily.path("reason").asText()).contains("source-freshness").contains("5400 s old");
        assertThat(daily.path("blocking")).hasSize(1);
        JsonNode blocking = daily.path("blocking").get(0);
        assertThat(blocking.path("traitType").asText()).isEqualTo("source-freshness");
        assertThat(blocking.path("status").asText()).isEqualTo("FAIL");
        assertThat(blocking.path("value").path("ageSeconds").asInt()).isEqualTo(5400);
        // Evaluated 20 s ago, re-evaluated every 60 s.
        assertThat(daily.path("nextAction").path("what").asText()).isEqualTo("re-evaluation");
        assertThat(daily.path("nextAction").path("at").asText()).isEqualTo("2026-03-10T09:00:40.000Z");
        assertThat(daily.path("lockHolder").asText()).isEqualTo("exec-1");
        assertThat(daily.path("runId").asText()).isEqualTo("run-silver");
        assertThat(daily.path("attempts").path("used").asInt()).isZero();
        assertThat(daily.path("attempts").path("max").asInt()).isEqualTo(3);
        // Its upstream bronze is no longer registered (deleted with force): said so, with a state.
        assertThat(daily.path("upstreams").get(0).path("pipelineId").asText()).isEqualTo("bronze");
        assertThat(daily.path("upstreams").get(0).path("reason").asText()).isEqualTo("not registered");
        assertThat(api.recording.writes()).as("reading a status writes nothing").isEmpty();
    }

    @Test
    void theDateDefaultsToTodayInThePipelinesZoneAndABadDateNamesTheParameter() {
        register("silver");

        assertThat(api.call("GET", "/pipelines/silver/status")
                        .json()
                        .path("date")
                        .asText())
                .isEqualTo("2026-03-10");
        ApiFixture.Reply bad = api.call("GET", "/pipelines/silver/status", null, null, Map.of("date", "10/03/2026"));
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.errorPaths()).containsExactly("query.date");
        assertThat(api.call("GET", "/pipelines/nobody/status").status()).isEqualTo(404);
    }

    @Test
    void theOverviewHasOneLinePerPipelineAndPages() {
        assertThat(api.call("PUT", "/pipelines/bronze", ApiFixture.UPSTREAM_JSON)
                        .status())
                .as("the fixture's upstream, registered again through the API")
                .isEqualTo(200);
        register("silver");
        notReady("silver");
        api.store
                .runLogs()
                .update(
                        new RunLogKey("bronze", DAY, "daily"),
                        current -> AttemptLedger.afterCompletion(
                                current, "bronze", DAY, "daily", "run-b", "exec-b", NOW.minusSeconds(300)));
        api.recording.clear();

        JsonNode first = api.call("GET", "/status", null, null, Map.of("date", DAY.toString(), "limit", "1"))
                .json();
        assertThat(first.path("items")).hasSize(1);
        assertThat(first.path("items").get(0).path("pipelineId").asText()).isEqualTo("bronze");
        assertThat(first.path("items").get(0).path("state").asText()).isEqualTo("COMPLETED");
        assertThat(first.path("items").get(0).path("downstreams").get(0).asText())
                .isEqualTo("silver");
        JsonNode second = api.call(
                        "GET",
                        "/status",
                        null,
                        null,
                        Map.of(
                                "date",
                                DAY.toString(),
                                "limit",
                                "1",
                                "cursor",
                                first.path("nextCursor").asText()))
                .json();
        JsonNode silver = second.path("items").get(0);
        assertThat(silver.path("pipelineId").asText()).isEqualTo("silver");
        assertThat(silver.path("state").asText()).isEqualTo("NOT_READY");
        assertThat(silver.path("upstreams").get(0).asText()).isEqualTo("bronze");
        assertThat(second.has("nextCursor")).isFalse();
        assertThat(api.recording.writes()).isEmpty();
    }

    @Test
    void theTimelineHasABarPerPhaseOfEachRunAndTheRetryWaitBetween() {
        register("silver");
        Instant t0 = NOW.minusSeconds(3600);
        List<Event> events = new ArrayList<>();
        events.add(stateChange("run-1", "PENDING", t0));
        events.add(new Event(
                EventKind.TRAIT_EVALUATED,
                "silver",
                "daily",
                DAY,
                null,
                "source-freshness",
                "PASS",
                "fresh",
                Map.of("ageSeconds", 30),
                t0.plusSeconds(10)));
        events.add(stateChange("run-1", "TRIGGERING", t0.plusSeconds(60)));
        events.add(stateChange("run-1", "RUNNING", t0.plusSeconds(61)));
        events.add(stateChange("run-1", "FAILED", t0.plusSeconds(600)));
        events.add(new Event(
                EventKind.RETRY_SCHEDULED,
                "silver",
                "daily",
                DAY,
                "run-1",
                null,
                "RETRY",
                "retry after 30 s",
                Map.of(),
                t0.plusSeconds(600)));
        events.add(stateChange("run-2", "PENDING", t0.plusSeconds(630)));
        events.add(stateChange("run-2", "TRIGGERING", t0.plusSeconds(640)));
        events.add(stateChange("run-2", "RUNNING", t0.plusSeconds(641)));
        events.forEach(api.store.events()::append);
        api.store
                .runs()
                .create(new RunState(
                        "run-1",
                        "silver",
                        "daily",
                        DAY,
                        RunStatus.FAILED,
                        4,
                        TriggerType.GLUE,
                        "exec-1",
                        Map.of(),
                        "boom",
                        FailureCategory.TRANSIENT,
                        t0,
                        t0.plusSeconds(600)));
        api.store
                .runs()
                .create(new RunState(
                        "run-2",
                        "silver",
                        "daily",
                        DAY,
                        RunStatus.RUNNING,
                        3,
                        TriggerType.GLUE,
                        "exec-1",
                        Map.of("glue_job_run_id", "jr_2"),
                        null,
                        null,
                        t0.plusSeconds(630),
                        t0.plusSeconds(641)));
        api.recording.clear();

        JsonNode timeline = api.call("GET", "/pipelines/silver/timeline", null, null, Map.of("date", DAY.toString()))
                .json();

        List<String> bars = new ArrayList<>();
        timeline.path("phases")
                .forEach(p -> bars.add(p.path("runId").asText() + ":"
                        + p.path("phase").asText() + (p.path("ongoing").asBoolean() ? "…" : "")));
        assertThat(bars)
                .containsExactly(
                        "run-1:EVALUATION",
                        "run-1:TRIGGER",
                        "run-1:JOB_RUN",
                        "run-1:RETRY_WAIT",
                        "run-2:EVALUATION",
                        "run-2:TRIGGER",
                        "run-2:JOB_RUN…");
        assertThat(timeline.path("phases").get(3).path("end").asText()).isEqualTo("2026-03-10T08:10:30.000Z");
        assertThat(timeline.path("phases").get(6).path("end").asText()).isEqualTo("2026-03-10T09:00:00.000Z");
        assertThat(timeline.path("runs").get(0).path("path").findValuesAsText("status"))
                .containsExactly("PENDING", "TRIGGERING", "RUNNING", "FAILED");
        assertThat(timeline.path("traits")
                        .get(0)
                        .path("value")
                        .path("ageSeconds")
                        .asInt())
                .isEqualTo(30);
        assertThat(api.recording.writes()).isEmpty();
    }

    private static Event stateChange(String runId, String status, Instant at) {
        return new Event(EventKind.RUN_STATE_CHANGED, "silver", "daily", DAY, runId, null, status, null, Map.of(), at);
    }
}
