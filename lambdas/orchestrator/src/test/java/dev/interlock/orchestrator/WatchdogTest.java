package dev.interlock.orchestrator;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.alert.Alert;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.marker.Marker;
import dev.interlock.model.marker.MarkerSource;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class WatchdogTest {

    private final Fixture f = new Fixture();

    private JsonNode tick() {
        JsonNode response = f.call("{\"action\":\"watchdog\"}");
        assertThat(response.get("action").asText()).isEqualTo("watchdog");
        assertThat(response.get("result").asText()).isEqualTo("proceed");
        return response.get("payload");
    }

    @Test
    void writesTheDaysScheduleMarkerOnceAcrossTicks() {
        f.register("schedules:\n  - {name: daily, after: '08:00'}\n");

        JsonNode first = tick();
        f.clock.advance(Duration.ofMinutes(5));
        JsonNode second = tick();

        assertThat(first.get("pipelines").asInt()).isEqualTo(1);
        assertThat(first.get("markersWritten").toString()).isEqualTo("[\"orders/daily/2026-03-02\"]");
        assertThat(second.get("markersWritten")).isEmpty();
        assertThat(f.provider.cascade().markers("orders", Fixture.DATE)).hasSize(1);
        Marker marker = f.provider.cascade().markers("orders", Fixture.DATE).get(0);
        assertThat(marker.source()).isEqualTo(MarkerSource.SCHEDULE);
        assertThat(marker.scheduleId()).isEqualTo("daily");
        assertThat(marker.replay()).isFalse();
    }

    @Test
    void writesNothingBeforeTheWindowOpens() {
        f.register("schedules:\n  - {name: daily, after: '10:30'}\n");

        assertThat(tick().get("markersWritten")).isEmpty();
        assertThat(f.provider.cascade().markers("orders", Fixture.DATE)).isEmpty();
    }

    @Test
    void theWindowOpensInTheSchedulesZone() {
        f.register("schedules:\n  - {name: daily, after: '08:00', timezone: America/New_York}\n");

        JsonNode before = tick();
        f.clock.set(Instant.parse("2026-03-02T13:00:00Z"));
        JsonNode after = tick();

        assertThat(before.get("markersWritten")).isEmpty();
        assertThat(after.get("markersWritten").toString()).isEqualTo("[\"orders/daily/2026-03-02\"]");
    }

    @Test
    void aDayThatAlreadyStartedGetsNoScheduleMarker() {
        f.register("schedules:\n  - {name: daily, after: '08:00'}\n  - {name: h09, after: '09:00'}\n");
        String runId = f.resolve();
        f.call(f.request("logResult", runId, Map.of("status", "FAILED", "failureCategory", "TRANSIENT")));
        f.provider.cascade().writeMarker(new Marker("orders", "h09", Fixture.DATE, MarkerSource.CASCADE, "silver#run-9",
                false, "silver", "run-9", Fixture.T0));

        JsonNode summary = tick();

        assertThat(summary.get("markersWritten")).isEmpty();
    }

    @Test
    void aScheduleWithoutAfterIsLeftToItsMarkers() {
        f.register("");

        assertThat(tick().get("markersWritten")).isEmpty();
    }

    @Test
    void alertsSlaMissedOnceAcrossTicks() {
        f.register("schedules:\n  - {name: daily, after: '06:00', deadline: '09:00'}\n");

        JsonNode first = tick();
        JsonNode second = tick();

        assertThat(first.get("slaMissed").toString()).isEqualTo("[\"orders/daily/2026-03-02\"]");
        assertThat(second.get("slaMissed")).isEmpty();
        assertThat(f.alerts.of(AlertKind.SLA_MISSED)).hasSize(1);
        Alert alert = f.alerts.of(AlertKind.SLA_MISSED).get(0);
        assertThat(alert.date()).isEqualTo(Fixture.DATE);
        assertThat(alert.details()).containsEntry("runLogStatus", "none");
    }

    @Test
    void aCompletedDayIsNotMissed() {
        f.register("schedules:\n  - {name: daily, deadline: '09:00'}\n");
        String runId = f.resolve();
        f.call(f.request("logResult", runId, Map.of("status", "COMPLETED")));

        assertThat(tick().get("slaMissed")).isEmpty();
        assertThat(f.alerts.sent).isEmpty();
    }

    @Test
    void aDeadlineRolledToTheNextDayIsJudgedOnThatDay() {
        f.register("schedules:\n  - {name: daily, after: '22:00', deadline: '02:00'}\n");
        f.clock.set(Instant.parse("2026-03-03T01:00:00Z"));
        JsonNode beforeDeadline = tick();
        f.clock.set(Instant.parse("2026-03-03T02:30:00Z"));

        JsonNode afterDeadline = tick();

        assertThat(beforeDeadline.get("slaMissed")).isEmpty();
        assertThat(afterDeadline.get("slaMissed").toString()).isEqualTo("[\"orders/daily/2026-03-02\"]");
    }

    @Test
    void anExcludedDayGetsNeitherMarkerNorAlert() {
        f.register("schedules:\n  - {name: daily, after: '08:00', deadline: '09:00'}\nexclusions:\n  days: [monday]\n");

        JsonNode summary = tick();

        assertThat(summary.get("excluded").toString()).isEqualTo("[\"orders/daily/2026-03-02\"]");
        assertThat(summary.get("markersWritten")).isEmpty();
        assertThat(summary.get("slaMissed")).isEmpty();
        assertThat(f.alerts.sent).isEmpty();
    }

    @Test
    void aDryRunPipelineIsNeverMissed() {
        f.register("dryRun: true\nschedules:\n  - {name: daily, after: '08:00', deadline: '09:00'}\n");

        JsonNode summary = tick();

        assertThat(summary.get("markersWritten")).hasSize(1);
        assertThat(summary.get("slaMissed")).isEmpty();
    }

    @Test
    void flagsARunStuckPastTheExecutionTimeoutOnce() {
        f.register("");
        f.clock.set(Fixture.T0.minus(Duration.ofHours(5)));
        String stuck = f.resolve();
        f.clock.set(Fixture.T0);

        JsonNode first = tick();
        JsonNode second = tick();

        assertThat(first.get("stuckRuns").toString()).isEqualTo("[\"" + stuck + "\"]");
        assertThat(second.get("stuckRuns")).isEmpty();
        assertThat(f.alerts.of(AlertKind.STUCK_RUN)).hasSize(1);
        assertThat(f.alerts.of(AlertKind.STUCK_RUN).get(0).details()).containsEntry("runId", stuck);
    }

    @Test
    void aRunYoungerThanTheTimeoutIsNotStuck() {
        f.register("");
        f.clock.set(Fixture.T0.minus(Duration.ofHours(3)));
        f.resolve();
        f.clock.set(Fixture.T0);

        assertThat(tick().get("stuckRuns")).isEmpty();
    }

    @Test
    void aPipelineWithAnInvalidConfigIsReportedAndTheOthersStillWatched() {
        f.register("broken", "schedules:\n  - {name: daily, after: '08:00', timezone: Nowhere/Land}\n");
        f.register("orders", "schedules:\n  - {name: daily, after: '08:00'}\n");

        JsonNode summary = tick();

        assertThat(summary.get("pipelines").asInt()).isEqualTo(2);
        assertThat(summary.get("errors")).hasSize(1);
        assertThat(summary.get("errors").get(0).asText()).startsWith("broken: ");
        assertThat(summary.get("markersWritten").toString()).isEqualTo("[\"orders/daily/2026-03-02\"]");
    }

    @Test
    void theDayIsTheScheduleZonesDate() {
        // 23:30 UTC on the 2nd is already the 3rd in Tokyo.
        f.register("schedules:\n  - {name: daily, after: '08:00', timezone: Asia/Tokyo}\n");
        f.clock.set(Instant.parse("2026-03-02T23:30:00Z"));

        JsonNode summary = tick();

        assertThat(summary.get("markersWritten").toString()).isEqualTo("[\"orders/daily/2026-03-03\"]");
        assertThat(f.provider.cascade().markers("orders", LocalDate.of(2026, 3, 3))).hasSize(1);
    }
}
