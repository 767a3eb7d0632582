package dev.interlock.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.pause.Pause;
import dev.interlock.store.PageRequest;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Pausing and resuming a pipeline through the API: audited, refused when it makes no sense, forward-only. */
class PauseRoutesTest {

    private final ApiFixture api = new ApiFixture();

    @BeforeEach
    void register() {
        assertThat(api.call("PUT", "/pipelines/silver", ApiFixture.PIPELINE).status())
                .isEqualTo(201);
        String hourly = ApiFixture.pipeline("hourly")
                .replace(
                        "\"upstreamPipeline\":\"bronze\"",
                        "\"upstreamPipeline\":\"bronze\",\"upstreamSchedule\":\"daily\"")
                .replace("\"trigger\"", "\"schedules\":[{\"name\":\"h\",\"cron\":\"0 * * * *\"}],\"trigger\"");
        assertThat(api.call("PUT", "/pipelines/hourly", hourly).status()).isEqualTo(201);
        api.recording.clear();
    }

    private List<Event> events(String pipeline, EventKind kind) {
        return api.store.events().read(pipeline, PageRequest.first(100)).items().stream()
                .filter(e -> e.kind() == kind)
                .toList();
    }

    @Test
    void aPauseIsAuditedShownAndRefusedTwice() {
        ApiFixture.Reply paused = api.call("POST", "/pipelines/silver/pause", "{\"reason\":\"orders DB maintenance\"}");

        assertThat(paused.status()).isEqualTo(200);
        assertThat(paused.json().path("pausedAt").asText()).isEqualTo("2026-03-10T09:00:00.000Z");
        assertThat(api.store.pauses().get("silver")).hasValueSatisfying(p -> {
            assertThat(p.reason()).isEqualTo("orders DB maintenance");
            assertThat(p.pausedAt()).isEqualTo(ApiFixture.NOW);
        });
        assertThat(events("silver", EventKind.PAUSED))
                .singleElement()
                .satisfies(e -> assertThat(e.details()).containsEntry("reason", "orders DB maintenance"));

        ApiFixture.Reply twice = api.call("POST", "/pipelines/silver/pause", "{\"reason\":\"again\"}");
        assertThat(twice.status()).isEqualTo(409);
        assertThat(twice.json().path("detail").asText())
                .contains("already paused since 2026-03-10 09:00 +00:00")
                .contains("orders DB maintenance");
        assertThat(events("silver", EventKind.PAUSED)).hasSize(1);

        JsonNode status = api.call("GET", "/pipelines/silver/status").json();
        assertThat(status.at("/paused/reason").asText()).isEqualTo("orders DB maintenance");
        assertThat(status.at("/schedules/0/state").asText()).isEqualTo("PAUSED");
        assertThat(status.at("/schedules/0/nextAction/what").asText()).isEqualTo("resume");
        JsonNode line = api.call("GET", "/status").json().path("items").get(2);
        assertThat(line.path("pipelineId").asText()).isEqualTo("silver");
        assertThat(line.path("state").asText()).isEqualTo("PAUSED");
        assertThat(line.at("/paused/pausedBy").asText())
                .isEqualTo(paused.json().path("pausedBy").asText());
        assertThat(api.call("GET", "/pauses").json().path("items").findValuesAsText("pipelineId"))
                .containsExactly("silver");
    }

    @Test
    void evaluationsAndRerunsOfAPausedPipelineAreRefusedAndWriteNoMarker() {
        api.call("POST", "/pipelines/silver/pause", "{\"reason\":\"maintenance\"}");
        api.recording.clear();

        ApiFixture.Reply evaluation = api.call("POST", "/pipelines/silver/evaluations", "{}");
        ApiFixture.Reply rerun =
                api.call("POST", "/pipelines/silver/reruns", "{\"date\":\"2026-03-09\",\"reason\":\"fix\"}");

        assertThat(evaluation.status()).isEqualTo(409);
        assertThat(evaluation.json().path("detail").asText())
                .contains("is paused")
                .contains("/resume");
        assertThat(rerun.status()).isEqualTo(409);
        assertThat(api.recording.writes()).isEmpty();
    }

    @Test
    void aDeletedPipelinesPauseGoesWithIt() {
        api.call("POST", "/pipelines/silver/pause", "{\"reason\":\"maintenance\"}");

        assertThat(api.call("DELETE", "/pipelines/silver").status()).isEqualTo(204);

        assertThat(api.store.pauses().get("silver")).isEmpty();
        assertThat(api.call("PUT", "/pipelines/silver", ApiFixture.PIPELINE).status())
                .isEqualTo(201);
        assertThat(api.call("GET", "/pipelines/silver/status").json().has("paused"))
                .isFalse();
    }

    @Test
    void badRequestsNameTheirFieldAndWriteNothing() {
        ApiFixture.Reply noReason = api.call("POST", "/pipelines/silver/pause", "{\"reasn\":\"x\"}");
        assertThat(noReason.status()).isEqualTo(400);
        assertThat(noReason.errors()).anySatisfy(e -> assertThat(e).startsWith("$.reason:"));
        assertThat(noReason.errors()).anySatisfy(e -> assertThat(e).startsWith("$.reasn:"));
        assertThat(api.call("POST", "/pipelines/nobody/pause", "{\"reason\":\"x\"}")
                        .status())
                .isEqualTo(404);
        assertThat(api.call("POST", "/pipelines/silver/resume", null).status()).isEqualTo(409);
        assertThat(api.recording.writes()).isEmpty();
    }

    @Test
    void resumingIsAuditedAndListsTheWindowsThatOpenedWhilePausedWithoutRunningThem() {
        Pause pause = new Pause("hourly", "backlog", "ops", ApiFixture.NOW.minus(Duration.ofMinutes(210)));
        api.store.pauses().put(pause);
        // An upstream's cascade for a window that opened before the pause, turned away by the router meanwhile.
        api.store
                .events()
                .append(new Event(
                        EventKind.MARKER_SKIPPED,
                        "hourly",
                        "h.2300",
                        java.time.LocalDate.of(2026, 3, 9),
                        null,
                        null,
                        "PAUSED",
                        "marker MARKER#cascade#up#r1 (cascade) starts no execution: pipeline " + pause.describe(),
                        java.util.Map.of("pausedAt", pause.pausedAt().toString(), "pausedBy", "ops"),
                        ApiFixture.NOW.minus(Duration.ofMinutes(100))));

        ApiFixture.Reply resumed = api.call("POST", "/pipelines/hourly/resume", "{\"reason\":\"caught up\"}");

        assertThat(resumed.status()).isEqualTo(200);
        JsonNode body = resumed.json();
        assertThat(body.path("missedWindowCount").asInt()).isEqualTo(4);
        assertThat(body.path("missedWindows").findValuesAsText("scheduleId"))
                .containsExactly("h.2300", "h.0600", "h.0700", "h.0800");
        assertThat(body.path("missedWindows").findValuesAsText("date"))
                .containsExactly("2026-03-09", "2026-03-10", "2026-03-10", "2026-03-10");
        assertThat(body.path("pausedBy").asText()).isEqualTo("ops");
        assertThat(api.store.pauses().get("hourly")).isEmpty();
        assertThat(events("hourly", EventKind.RESUMED)).singleElement().satisfies(e -> {
            assertThat(e.details()).containsEntry("resumeReason", "caught up").containsEntry("missedWindowCount", 4);
            assertThat(e.message()).contains("4 window(s) opened or turned away meanwhile and were not run");
        });
        assertThat(api.store.cascade().markers("hourly", java.time.LocalDate.of(2026, 3, 10)))
                .as("forward-only: nothing is started for the missed windows")
                .isEmpty();
        assertThat(api.call("POST", "/pipelines/hourly/resume", "{}").status()).isEqualTo(409);
    }
}
