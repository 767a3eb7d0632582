package dev.interlock.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.rerun.Rerun;
import dev.interlock.model.rerun.RerunStatus;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.model.trait.TraitResult;
import dev.interlock.model.trait.TraitStatus;
import dev.interlock.store.RunLogKey;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HistoryRoutesTest {

    private static final LocalDate DAY = LocalDate.of(2026, 3, 9);
    private final ApiFixture api = new ApiFixture();

    /** A document as a client reads it back (numbers parsed from text, not Java's long/int). */
    private static JsonNode asRead(Object value) {
        return InterlockJson.tree(InterlockJson.write(value));
    }

    private RunState run(String runId, Instant createdAt) {
        return new RunState(
                runId,
                "silver",
                "daily",
                DAY,
                RunStatus.PENDING,
                1,
                null,
                "exec-" + runId,
                Map.of(),
                null,
                null,
                createdAt,
                createdAt);
    }

    @Test
    void runsAreListedNewestFirstAndReadById() {
        RunState older = run("run-1", ApiFixture.NOW.minusSeconds(60));
        RunState newer = run("run-2", ApiFixture.NOW);
        api.store.runs().create(older);
        api.store.runs().create(newer);

        JsonNode page = api.call("GET", "/pipelines/silver/runs").json();

        assertThat(page.get("items")).containsExactly(asRead(newer), asRead(older));
        assertThat(page.has("nextCursor")).isFalse();
        assertThat(api.call("GET", "/runs/run-1").json()).isEqualTo(asRead(older));
        assertThat(api.call("GET", "/runs/run-9").status()).isEqualTo(404);
        assertThat(api.call("GET", "/runs/run%231").errorPaths()).containsExactly("path.runId");
    }

    @Test
    void runLogsAndTraitResultsAreListed() {
        RunLog log = new RunLog(
                "silver",
                DAY,
                "daily",
                RunLogStatus.COMPLETED,
                1,
                "run-1",
                "exec",
                null,
                null,
                List.of(),
                false,
                ApiFixture.NOW,
                ApiFixture.NOW,
                ApiFixture.NOW);
        api.store.runLogs().update(new RunLogKey("silver", DAY, "daily"), current -> log);
        TraitResult trait = new TraitResult(
                "silver",
                "daily",
                DAY,
                "source-freshness",
                TraitStatus.PASS,
                Map.of("ageSeconds", 12),
                null,
                null,
                true,
                ApiFixture.NOW,
                ApiFixture.NOW.plusSeconds(300));
        api.store.traits().put(trait);

        assertThat(api.call("GET", "/pipelines/silver/runlogs").json().get("items"))
                .containsExactly(asRead(log));
        assertThat(api.call("GET", "/pipelines/silver/traits").json().get("items"))
                .containsExactly(asRead(trait));
        assertThat(api.call("GET", "/pipelines/gold/traits").json().get("items"))
                .isEmpty();
    }

    @Test
    void eventsAreReadForwardWithACursorThatFollowsNewEvents() {
        for (int i = 0; i < 3; i++) {
            api.store
                    .events()
                    .append(new Event(
                            EventKind.TRAIT_EVALUATED,
                            "silver",
                            "daily",
                            DAY,
                            null,
                            "t" + i,
                            "PASS",
                            "m" + i,
                            Map.of(),
                            ApiFixture.NOW.plusMillis(i)));
        }
        List<String> seen = new ArrayList<>();
        JsonNode first = api.call("GET", "/pipelines/silver/events", null, null, Map.of("limit", "2"))
                .json();
        first.get("items").forEach(e -> seen.add(e.get("message").asText()));
        String cursor = first.get("nextCursor").asText();
        JsonNode second = api.call(
                        "GET", "/pipelines/silver/events", null, null, Map.of("limit", "2", "cursor", cursor))
                .json();
        second.get("items").forEach(e -> seen.add(e.get("message").asText()));

        assertThat(seen).containsExactly("m0", "m1", "m2");
        assertThat(second.has("nextCursor")).isFalse();
        assertThat(api.call("GET", "/pipelines/silver/events", null, null, Map.of("cursor", "%%%"))
                        .status())
                .isEqualTo(400);
    }

    @Test
    void rerunsAreListedNewestRequestFirstWithTheirStatus() {
        assertThat(api.call("PUT", "/pipelines/silver", ApiFixture.PIPELINE).status())
                .isEqualTo(201);
        for (String date : List.of("2026-03-09", "2026-03-01", "2026-03-08")) {
            assertThat(api.call(
                                    "POST",
                                    "/pipelines/silver/reruns",
                                    "{\"date\":\"" + date + "\",\"reason\":\"backfill " + date + "\"}")
                            .status())
                    .isEqualTo(202);
        }
        Rerun first = api.store.reruns().get("id-1").orElseThrow();
        Rerun started = first.movedTo(RerunStatus.STARTED, "", "run-1", ApiFixture.NOW);
        api.store.moveRerun(
                RerunStatus.PENDING,
                started,
                new Event(
                        EventKind.RERUN_STATUS_CHANGED,
                        "silver",
                        "daily",
                        first.date(),
                        "run-1",
                        null,
                        "STARTED",
                        "rerun started",
                        Map.of("rerunId", "id-1"),
                        ApiFixture.NOW));

        JsonNode page = api.call("GET", "/pipelines/silver/reruns", null, null, Map.of("limit", "2"))
                .json();
        JsonNode rest = api.call(
                        "GET",
                        "/pipelines/silver/reruns",
                        null,
                        null,
                        Map.of("limit", "2", "cursor", page.get("nextCursor").asText()))
                .json();

        // Requested in this order (ids count up); newest first whatever the date they re-process.
        List<String> ids = new ArrayList<>();
        page.get("items").forEach(r -> ids.add(r.get("rerunId").asText()));
        rest.get("items").forEach(r -> ids.add(r.get("rerunId").asText()));
        assertThat(ids).containsExactly("id-3", "id-2", "id-1");
        assertThat(rest.has("nextCursor")).isFalse();
        assertThat(rest.get("items").get(0)).isEqualTo(asRead(started));
        assertThat(api.call("GET", "/pipelines/bronze/reruns").json().get("items"))
                .isEmpty();
        assertThat(api.call("GET", "/pipelines/silver/reruns", null, null, Map.of("cursor", "%%%"))
                        .status())
                .isEqualTo(400);
    }
}
