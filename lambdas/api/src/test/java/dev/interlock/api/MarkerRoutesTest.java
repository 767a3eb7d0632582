package dev.interlock.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.marker.ExecutionName;
import dev.interlock.model.marker.Marker;
import dev.interlock.model.marker.MarkerSource;
import dev.interlock.model.rerun.Rerun;
import dev.interlock.model.rerun.RerunStatus;
import dev.interlock.store.PageRequest;
import java.time.LocalDate;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class MarkerRoutesTest {

    private static final LocalDate TODAY = LocalDate.of(2026, 3, 10);
    private final ApiFixture api = new ApiFixture();

    @BeforeEach
    void register() {
        api.call("PUT", "/pipelines/silver", ApiFixture.PIPELINE);
        String hourly = ApiFixture.pipeline("gold")
                .replace(
                        "\"upstreamPipeline\":\"bronze\"",
                        "\"upstreamPipeline\":\"bronze\",\"upstreamSchedule\":\"daily\"")
                .replace("\"trigger\"", "\"schedules\":[{\"name\":\"h07\"},{\"name\":\"h08\"}],\"trigger\"");
        assertThat(api.call("PUT", "/pipelines/gold", hourly).status()).isEqualTo(201);
        api.recording.clear();
    }

    @Test
    void anEvaluationWritesAManualMarkerForTodayAndTheOnlySchedule() {
        ApiFixture.Reply reply = api.call("POST", "/pipelines/silver/evaluations", null, null, Map.of());

        assertThat(reply.status()).isEqualTo(202);
        Marker expected =
                new Marker("silver", "daily", TODAY, MarkerSource.MANUAL, "id-1", false, "api", null, ApiFixture.NOW);
        assertThat(api.store.cascade().markers("silver", TODAY)).containsExactly(expected);
        assertThat(reply.json().get("marker")).isEqualTo(InterlockJson.tree(expected));
        assertThat(reply.json().get("executionName").asText())
                .isEqualTo(ExecutionName.of("silver", TODAY, "daily", "MARKER#manual#id-1"));
        assertThat(api.recording.writes()).containsExactly("CascadeStore.writeMarker");
    }

    @Test
    void aSecondEvaluationWritesASecondMarker() {
        api.call("POST", "/pipelines/silver/evaluations", "{}");
        api.call("POST", "/pipelines/silver/evaluations", "{\"date\":\"2026-03-09\",\"scheduleId\":\"daily\"}");

        assertThat(api.store.cascade().markers("silver", TODAY))
                .extracting(Marker::suffix)
                .containsExactly("id-1");
        assertThat(api.store.cascade().markers("silver", TODAY.minusDays(1)))
                .extracting(Marker::suffix)
                .containsExactly("id-2");
    }

    @Test
    void aPipelineWithSeveralSchedulesNeedsOneNamedAndKnown() {
        assertThat(api.call("POST", "/pipelines/gold/evaluations", "{}").errors())
                .containsExactly("$.scheduleId: is required: the pipeline has the schedules h07, h08");
        assertThat(api.call("POST", "/pipelines/gold/evaluations", "{\"scheduleId\":\"h09\"}")
                        .errors())
                .containsExactly("$.scheduleId: 'h09' is not a schedule of gold; declared: h07, h08");
        assertThat(api.call("POST", "/pipelines/gold/evaluations", "{\"scheduleId\":\"h08\"}")
                        .status())
                .isEqualTo(202);
        assertThat(api.store.cascade().markers("gold", TODAY))
                .extracting(Marker::scheduleId)
                .containsExactly("h08");
    }

    @Test
    void evaluationDatesTheStreamRouterWouldSkipAreRefused() {
        ApiFixture.Reply reply = api.call(
                "POST",
                "/pipelines/silver/evaluations",
                "{\"date\":\"2026-03-07\",\"scheduleid\":\"nightly\",\"when\":\"now\"}");

        assertThat(reply.errors())
                .containsExactly(
                        "$.when: unknown field; allowed: scheduleId, date",
                        "$.scheduleId: 'nightly' is not a schedule of silver; declared: daily",
                        "$.date: 2026-03-07 is more than 2 days ago, so its marker would be skipped as stale; request a rerun instead");
        assertThat(api.call("POST", "/pipelines/silver/evaluations", "{\"date\":\"2026-03-12\"}")
                        .errors())
                .containsExactly("$.date: 2026-03-12 is in the future");
        assertThat(api.call("POST", "/pipelines/silver/evaluations", "{\"date\":\"2026-3-1\"}")
                        .errors())
                .containsExactly("$.date: '2026-3-1' is not a date YYYY-MM-DD");
        assertThat(api.recording.writes()).isEmpty();
    }

    @Test
    void anUnknownPipelineIsNotFound() {
        ApiFixture.Reply reply = api.call("POST", "/pipelines/nobody/evaluations", "{}");

        assertThat(reply.status()).isEqualTo(404);
        assertThat(reply.json().get("detail").asText()).isEqualTo("no pipeline 'nobody'");
        assertThat(api.call("POST", "/pipelines/nobody/reruns", "{\"date\":\"2026-03-01\",\"reason\":\"x\"}")
                        .status())
                .isEqualTo(404);
        assertThat(api.recording.writes()).isEmpty();
    }

    @Test
    void aRerunRecordsTheRequestAndWritesAReplayMarker() {
        ApiFixture.Reply reply = api.call(
                "POST",
                "/pipelines/gold/reruns",
                "{\"date\":\"2026-03-01\",\"scheduleId\":\"h07\",\"reason\":\"late files 🚚\",\"description\":\"vendor resent\"}");

        assertThat(reply.status()).isEqualTo(202);
        String executionName = ExecutionName.of("gold", LocalDate.of(2026, 3, 1), "h07", "MARKER#rerun#id-1");
        Rerun rerun = new Rerun(
                "id-1",
                "gold",
                "h07",
                LocalDate.of(2026, 3, 1),
                MarkerSource.MANUAL,
                null,
                "late files 🚚",
                "vendor resent",
                RerunStatus.PENDING,
                null,
                executionName,
                null,
                ApiFixture.NOW,
                ApiFixture.NOW,
                null,
                Map.of("requestedBy", "api"));
        Marker marker = new Marker(
                "gold",
                "h07",
                LocalDate.of(2026, 3, 1),
                MarkerSource.RERUN,
                "id-1",
                true,
                "id-1",
                null,
                ApiFixture.NOW);
        assertThat(api.store.reruns().get("id-1")).contains(rerun);
        assertThat(api.store.cascade().markers("gold", LocalDate.of(2026, 3, 1)))
                .containsExactly(marker);
        JsonNode body = reply.json();
        assertThat(body.get("rerun")).isEqualTo(InterlockJson.tree(rerun));
        assertThat(body.get("marker")).isEqualTo(InterlockJson.tree(marker));
        assertThat(body.get("executionName").asText()).isEqualTo(executionName);
        assertThat(api.recording.writes()).containsExactly("Provider.acceptRerun");
        assertThat(api.store.events().latest("gold", 1))
                .containsExactly(new Event(
                        EventKind.RERUN_REQUESTED,
                        "gold",
                        "h07",
                        LocalDate.of(2026, 3, 1),
                        null,
                        null,
                        "PENDING",
                        "late files 🚚",
                        Map.of("rerunId", "id-1", "requestedBy", "api", "executionName", executionName),
                        ApiFixture.NOW));
    }

    @Test
    void theDailyRerunBudgetIsEnforced() {
        for (int i = 0; i < 3; i++) {
            assertThat(api.call("POST", "/pipelines/silver/reruns", "{\"date\":\"2026-03-09\",\"reason\":\"again\"}")
                            .status())
                    .isEqualTo(202);
        }
        api.recording.clear();

        ApiFixture.Reply fourth =
                api.call("POST", "/pipelines/silver/reruns", "{\"date\":\"2026-03-09\",\"reason\":\"again\"}");

        assertThat(fourth.status()).isEqualTo(409);
        assertThat(fourth.json().get("detail").asText())
                .isEqualTo("the rerun budget of silver for 2026-03-09 (daily) is spent: 3 of 3");
        assertThat(api.recording.writes()).isEmpty();
        assertThat(api.store.reruns().list(PageRequest.first(10)).items()).hasSize(3);
    }

    @Test
    void theBudgetCounterRefusesWhatAStalePreCheckWouldLetThrough() {
        for (int i = 0; i < 3; i++) {
            assertThat(api.call("POST", "/pipelines/silver/reruns", "{\"date\":\"2026-03-09\",\"reason\":\"again\"}")
                            .status())
                    .isEqualTo(202);
        }
        // A request racing the three sees the day's count before they were written.
        api.recording.answerRerunCountWith(0);
        api.recording.clear();

        ApiFixture.Reply reply =
                api.call("POST", "/pipelines/silver/reruns", "{\"date\":\"2026-03-09\",\"reason\":\"again\"}");

        assertThat(reply.status()).isEqualTo(409);
        assertThat(reply.json().get("detail").asText())
                .isEqualTo("the rerun budget of silver for 2026-03-09 (daily) is spent: 3 of 3");
        assertThat(api.recording.writes()).isEmpty();
        assertThat(api.store.reruns().get("id-4")).isEmpty();
        assertThat(api.store.cascade().markers("silver", LocalDate.of(2026, 3, 9)))
                .hasSize(3);
    }

    @Test
    void aRerunWhoseMarkerExistsIsRefusedAndStoresNothing() {
        // The identifier source hands out "id-1" next: a marker with that suffix is already there.
        Marker clash = new Marker(
                "silver",
                "daily",
                LocalDate.of(2026, 3, 9),
                MarkerSource.RERUN,
                "id-1",
                true,
                "old",
                null,
                ApiFixture.NOW);
        assertThat(api.store.cascade().writeMarker(clash)).isTrue();
        api.recording.clear();

        ApiFixture.Reply reply =
                api.call("POST", "/pipelines/silver/reruns", "{\"date\":\"2026-03-09\",\"reason\":\"again\"}");

        assertThat(reply.status()).isEqualTo(409);
        assertThat(reply.json().get("detail").asText()).isEqualTo("a marker with suffix id-1 exists already; retry");
        assertThat(api.recording.writes()).isEmpty();
        assertThat(api.store.reruns().get("id-1")).isEmpty();
        assertThat(api.store.reruns().count("silver", LocalDate.of(2026, 3, 9), "daily"))
                .isZero();
        assertThat(api.store.cascade().markers("silver", LocalDate.of(2026, 3, 9)))
                .containsExactly(clash);
        assertThat(api.store.events().latest("silver", 10)).noneMatch(e -> e.kind() == EventKind.RERUN_REQUESTED);

        // Nothing was spent: the retry the message asks for (with a fresh id) is accepted.
        assertThat(api.call("POST", "/pipelines/silver/reruns", "{\"date\":\"2026-03-09\",\"reason\":\"again\"}")
                        .status())
                .isEqualTo(202);
    }

    @Test
    void rerunRequestsNameEveryProblem() {
        ApiFixture.Reply reply = api.call(
                "POST",
                "/pipelines/silver/reruns",
                "{\"date\":\"2026-03-11\",\"reason\":\"  \",\"description\":\"a\\u0000b\",\"scheduleId\":7}");

        assertThat(reply.errors())
                .containsExactly(
                        "$.scheduleId: expected text, got number",
                        "$.date: 2026-03-11 is in the future; only past or current dates can be rerun",
                        "$.reason: is required",
                        "$.description: must not contain control characters");
        assertThat(api.call("POST", "/pipelines/silver/reruns", "{}").errors())
                .containsExactly("$.reason: is required");
        assertThat(api.call("POST", "/pipelines/silver/reruns", null, null, Map.of())
                        .errors())
                .containsExactly("$: a request body is required");
        assertThat(api.recording.writes()).isEmpty();
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "{0} at {1}: {2}")
    @org.junit.jupiter.params.provider.CsvSource({
        "Asia/Tokyo,          2026-03-01T14:30:00Z, 2026-03-01",
        "Asia/Tokyo,          2026-03-01T15:30:00Z, 2026-03-02",
        "America/Los_Angeles, 2026-03-02T07:30:00Z, 2026-03-01",
        "America/Los_Angeles, 2026-03-02T08:30:00Z, 2026-03-02"
    })
    void requestsWithoutADateMeanTodayInTheSchedulesZone(String zone, java.time.Instant now, LocalDate expected) {
        ApiFixture local = new ApiFixture(ApiFixture.SETTINGS, java.time.Clock.fixed(now, java.time.ZoneOffset.UTC));
        String zoned = ApiFixture.pipeline("zoned")
                .replace(
                        "\"trigger\"",
                        "\"schedules\":[{\"name\":\"daily\",\"timezone\":\"" + zone + "\"}],\"trigger\"");
        assertThat(local.call("PUT", "/pipelines/zoned", zoned).status()).isEqualTo(201);

        ApiFixture.Reply evaluation = local.call("POST", "/pipelines/zoned/evaluations", "{}");
        ApiFixture.Reply rerun = local.call("POST", "/pipelines/zoned/reruns", "{\"reason\":\"late file\"}");

        assertThat(evaluation.json().path("marker").path("date").asText()).isEqualTo(expected.toString());
        assertThat(rerun.json().path("rerun").path("date").asText()).isEqualTo(expected.toString());
        // "Today" for the stale and future checks is the local date too.
        assertThat(local.call("POST", "/pipelines/zoned/evaluations", "{\"date\":\"" + expected.plusDays(1) + "\"}")
                        .status())
                .isEqualTo(202);
        assertThat(local.call("POST", "/pipelines/zoned/evaluations", "{\"date\":\"" + expected.plusDays(2) + "\"}")
                        .errors())
                .containsExactly("$.date: " + expected.plusDays(2) + " is in the future");
        assertThat(local.call(
                                "POST",
                                "/pipelines/zoned/reruns",
                                "{\"date\":\"" + expected.plusDays(1) + "\",\"reason\":\"x\"}")
                        .errors())
                .containsExactly("$.date: " + expected.plusDays(1)
                        + " is in the future; only past or current dates can be rerun");
    }
}
