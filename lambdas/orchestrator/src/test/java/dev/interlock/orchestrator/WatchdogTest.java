package dev.interlock.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.alert.Alert;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.model.marker.Marker;
import dev.interlock.model.marker.MarkerSource;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WatchdogTest {

    private final Fixture f = new Fixture();

    private JsonNode tick() {
        JsonNode response = f.call(InterlockJson.write(OrchestratorAction.WATCHDOG.invocation(null)));
        assertThat(response.get("action").asText()).isEqualTo(OrchestratorAction.WATCHDOG.wireName());
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
        f.call(f.request(
                OrchestratorAction.LOG_RESULT, runId, Map.of("status", "FAILED", "failureCategory", "TRANSIENT")));
        f.provider
                .cascade()
                .writeMarker(new Marker(
                        "orders",
                        "h09",
                        Fixture.DATE,
                        MarkerSource.CASCADE,
                        "silver#run-9",
                        false,
                        "silver",
                        "run-9",
                        Fixture.T0));

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
    void aPausedPipelinesMissedDeadlineIsRecordedNotAlertedAndItsScheduleMarkerStillWritten() {
        f.register("schedules:\n  - {name: daily, after: '06:00', deadline: '09:00'}\n");
        f.provider
                .pauses()
                .put(new dev.interlock.model.pause.Pause("orders", "source in maintenance", "ops", Fixture.T0));

        JsonNode summary = tick();

        assertThat(summary.get("slaMissed")).isEmpty();
        assertThat(f.alerts.of(AlertKind.SLA_MISSED)).isEmpty();
        assertThat(f.provider.events().latest("orders", 10))
                .filteredOn(e -> e.kind() == dev.interlock.model.event.EventKind.ALERT_MUTED)
                .singleElement()
                .satisfies(e -> {
                    assertThat(e.status()).isEqualTo("PAUSED");
                    assertThat(e.date()).isEqualTo(Fixture.DATE);
                    assertThat(e.message()).contains("SLA_MISSED not sent").contains("source in maintenance");
                });
        // The schedule marker is still written: the stream router skips it with the pause's reason.
        assertThat(summary.get("markersWritten").toString()).isEqualTo("[\"orders/daily/2026-03-02\"]");
    }

    @Test
    void aCompletedDayIsNotMissed() {
        f.register("schedules:\n  - {name: daily, deadline: '09:00'}\n");
        String runId = f.resolve();
        f.call(f.request(OrchestratorAction.LOG_RESULT, runId, Map.of("status", "COMPLETED")));

        assertThat(tick().get("slaMissed")).isEmpty();
        // Completed at 10:00, after its 09:00 deadline: judged late when recorded, never SLA_MISSED by the watchdog.
        assertThat(f.alerts.kinds()).containsExactly("SLA_COMPLETION_BREACHED");
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
        assertThat(f.provider.cascade().markers("orders", LocalDate.of(2026, 3, 3)))
                .hasSize(1);
    }

    // ---- forward-only after registration ----

    private static String hourly() {
        StringBuilder yaml = new StringBuilder("schedules:\n");
        for (int h = 0; h < 24; h++) {
            yaml.append("  - {name: h%02d, after: '%02d:10', deadline: '%02d:50'}\n".formatted(h, h, h));
        }
        return yaml.toString();
    }

    private static final Instant EVENING = Instant.parse("2026-03-02T18:07:00Z");

    @Test
    void aPipelineRegisteredAt1807RunsNoEarlierWindowOfTheDayAndMissesNoEarlierDeadline() {
        f.registerAt(EVENING, "orders", hourly());
        f.clock.set(EVENING);

        JsonNode atRegistration = tick();
        f.clock.set(Instant.parse("2026-03-02T18:10:00Z"));
        JsonNode h18Opens = tick();
        f.clock.set(Instant.parse("2026-03-02T18:51:00Z"));
        JsonNode h18Deadline = tick();

        assertThat(atRegistration.get("markersWritten")).isEmpty();
        assertThat(atRegistration.get("slaMissed")).isEmpty();
        assertThat(h18Opens.get("markersWritten").toString()).isEqualTo("[\"orders/h18/2026-03-02\"]");
        // h18 opened after the registration and nothing completed it: that one deadline is the pipeline's to miss.
        assertThat(h18Deadline.get("slaMissed").toString()).isEqualTo("[\"orders/h18/2026-03-02\"]");
        assertThat(f.provider.cascade().markers("orders", Fixture.DATE))
                .extracting(Marker::scheduleId)
                .containsExactly("h18");
        assertThat(f.alerts.of(AlertKind.SLA_MISSED))
                .extracting(Alert::scheduleId)
                .containsExactly("h18");
    }

    @Test
    void catchUpRunsTheRegistrationDaysEarlierWindowsButNeverAlertsForDeadlinesBeforeIt() {
        f.registerAt(EVENING, "orders", "catchUp: true\n" + hourly());
        f.clock.set(EVENING);

        JsonNode summary = tick();
        f.clock.set(Instant.parse("2026-03-02T18:51:00Z"));
        JsonNode later = tick();

        List<String> earlier = java.util.stream.IntStream.range(0, 18)
                .mapToObj(h -> "orders/h%02d/2026-03-02".formatted(h))
                .toList();
        assertThat(summary.get("markersWritten")).extracting(JsonNode::asText).containsExactlyElementsOf(earlier);
        assertThat(summary.get("slaMissed")).isEmpty();
        // The window open at registration time is caught up too, and its deadline (after the registration) counts.
        assertThat(later.get("slaMissed").toString()).isEqualTo("[\"orders/h18/2026-03-02\"]");
        assertThat(f.alerts.of(AlertKind.SLA_MISSED)).hasSize(1);
    }

    @Test
    void aScheduleAddedByAReRegistrationIsWatchedForwardOnlyWhileTheOthersKeepTheirDay() {
        f.register("schedules:\n  - {name: daily, after: '08:00', deadline: '20:00'}\n");
        f.registerAt(
                EVENING,
                "orders",
                "schedules:\n  - {name: daily, after: '08:00', deadline: '20:00'}\n"
                        + "  - {name: noon, after: '12:00', deadline: '13:00'}\n");
        f.clock.set(Instant.parse("2026-03-02T20:30:00Z"));

        JsonNode sameDay = tick();
        f.clock.set(Instant.parse("2026-03-03T13:30:00Z"));
        JsonNode nextDay = tick();

        // daily was registered at midnight: its window and deadline are still watched after the re-registration.
        assertThat(sameDay.get("markersWritten").toString()).isEqualTo("[\"orders/daily/2026-03-02\"]");
        assertThat(sameDay.get("slaMissed").toString()).isEqualTo("[\"orders/daily/2026-03-02\"]");
        // noon appeared at 18:07: its day starts tomorrow.
        assertThat(nextDay.get("markersWritten"))
                .extracting(JsonNode::asText)
                .containsExactly("orders/daily/2026-03-03", "orders/noon/2026-03-03");
        assertThat(nextDay.get("slaMissed").toString()).isEqualTo("[\"orders/noon/2026-03-03\"]");
    }

    @Test
    void aChangedScheduleIsANewOneButAnUnchangedReRegistrationLosesNothingPending() {
        f.register("schedules:\n  - {name: daily, after: '08:00'}\n");
        // Re-registered unchanged at 08:30 before any tick saw the 08:00 opening: it is still due.
        f.registerAt(
                Instant.parse("2026-03-02T08:30:00Z"), "orders", "schedules:\n  - {name: daily, after: '08:00'}\n");

        assertThat(tick().get("markersWritten").toString()).isEqualTo("[\"orders/daily/2026-03-02\"]");

        f.register("other", "schedules:\n  - {name: daily, after: '08:00'}\n");
        // Moved to 09:00 at 09:30: the changed window opened before its registration.
        f.registerAt(Instant.parse("2026-03-02T09:30:00Z"), "other", "schedules:\n  - {name: daily, after: '09:00'}\n");
        f.clock.set(Instant.parse("2026-03-02T09:45:00Z"));
        assertThat(tick().get("markersWritten")).isEmpty();
    }

    @Test
    void anExplicitEvaluationIsStillPossibleForAWindowBeforeRegistration() {
        f.registerAt(EVENING, "orders", hourly());
        f.clock.set(EVENING);

        // What the API's POST /pipelines/{id}/evaluations does: a manual marker, whatever the watchdog thinks.
        boolean written = f.provider
                .cascade()
                .writeMarker(new Marker(
                        "orders",
                        "h09",
                        Fixture.DATE,
                        MarkerSource.MANUAL,
                        "backfill-h09",
                        false,
                        "api",
                        null,
                        EVENING));

        assertThat(written).isTrue();
        assertThat(tick().get("markersWritten")).isEmpty();
        assertThat(f.provider.cascade().markers("orders", Fixture.DATE))
                .extracting(Marker::scheduleId)
                .containsExactly("h09");
    }

    // ---- a tick costs what is due, resumes and catches up ----

    @Test
    void missedTicksAreCaughtUpByTheNextOne() {
        f.register("schedules:\n  - {name: daily, after: '08:00', deadline: '09:00'}\n");
        f.clock.set(Instant.parse("2026-03-04T10:00:00Z"));

        JsonNode summary = tick();

        assertThat(summary.get("markersWritten"))
                .extracting(JsonNode::asText)
                .containsExactly("orders/daily/2026-03-02", "orders/daily/2026-03-03", "orders/daily/2026-03-04");
        assertThat(summary.get("slaMissed"))
                .extracting(JsonNode::asText)
                .containsExactly("orders/daily/2026-03-02", "orders/daily/2026-03-03", "orders/daily/2026-03-04");
        assertThat(summary.get("caughtUp").asBoolean()).isTrue();
        assertThat(tick().get("dueEntries").asInt()).isZero();
    }

    @Test
    void aTickOutOfTimeLeavesTheRestToTheNextAndNothingIsDoneTwice() {
        // A first, empty tick records where the index starts, so the next ones begin with today's entries.
        assertThat(tick().get("caughtUp").asBoolean()).isTrue();
        for (int i = 0; i < 250; i++) {
            f.register("p%03d".formatted(i), "schedules:\n  - {name: daily, after: '08:00'}\n");
        }
        // A clock for the time budget that runs out as soon as the first page is done.
        java.util.concurrent.atomic.AtomicLong nanos = new java.util.concurrent.atomic.AtomicLong();
        Watchdog impatient = new Watchdog(
                f.collaborators(),
                Duration.ofSeconds(1),
                () -> nanos.getAndAdd(Duration.ofMillis(700).toNanos()));

        Watchdog.Summary first =
                (Watchdog.Summary) impatient.run(f.watchdogRequest()).payload();
        Watchdog.Summary second =
                (Watchdog.Summary) impatient.run(f.watchdogRequest()).payload();
        JsonNode rest = tick();

        assertThat(first.caughtUp()).isFalse();
        assertThat(first.markersWritten()).isNotEmpty().hasSizeLessThan(250);
        java.util.Set<String> all = new java.util.TreeSet<>(first.markersWritten());
        assertThat(second.markersWritten()).doesNotContainAnyElementsOf(all);
        all.addAll(second.markersWritten());
        rest.get("markersWritten")
                .forEach(m -> assertThat(all.add(m.asText()))
                        .as("written twice: " + m)
                        .isTrue());
        assertThat(rest.get("caughtUp").asBoolean()).isTrue();
        assertThat(all).hasSize(250);
        for (int i = 0; i < 250; i++) {
            assertThat(f.provider.cascade().markers("p%03d".formatted(i), Fixture.DATE))
                    .hasSize(1);
        }
    }

    @Test
    void aSteadyTickReadsTheSameWhateverIsRegistered() {
        CountingProvider few = CountingProvider.around(f.provider);
        f.register("schedules:\n  - {name: daily, after: '08:00', deadline: '09:00'}\n");
        tick();
        f.clock.set(Instant.parse("2026-03-02T10:05:00Z"));
        long withOne = few.callsDuring(() -> runWith(few));

        for (int i = 0; i < 300; i++) {
            f.register("p%03d".formatted(i), "schedules:\n  - {name: daily, after: '08:00', deadline: '09:00'}\n");
        }
        f.clock.set(Instant.parse("2026-03-02T08:30:00Z"));
        tick();
        f.clock.set(Instant.parse("2026-03-02T10:10:00Z"));
        tick();
        f.clock.set(Instant.parse("2026-03-02T10:15:00Z"));
        long withThreeHundred = few.callsDuring(() -> runWith(few));

        // The low-water mark, one Query per due shard, and the backfills in view.
        assertThat(withThreeHundred).isEqualTo(withOne).isEqualTo(1 + TableKeys.DUE_SHARDS + 1);
    }

    private void runWith(CountingProvider counting) {
        Watchdog watchdog = new Watchdog(f.collaborators(counting.provider()));
        Watchdog.Summary summary =
                (Watchdog.Summary) watchdog.run(f.watchdogRequest()).payload();
        assertThat(summary.dueEntries()).isZero();
    }

    @Test
    void aDeletedPipelineIsNoLongerWatched() {
        f.register("schedules:\n  - {name: daily, after: '08:00', deadline: '09:00'}\n");
        f.provider.pipelines().delete("orders");

        JsonNode summary = tick();

        assertThat(summary.get("pipelines").asInt()).isZero();
        assertThat(summary.get("markersWritten")).isEmpty();
        assertThat(f.alerts.sent).isEmpty();
    }

    @Test
    void anUnregisteredCalendarIsReportedAndTheDayStartsOnceItIsRegistered() {
        f.register("schedules:\n  - {name: daily, after: '08:00'}\nexclusions:\n  calendar: holidays\n");

        JsonNode broken = tick();
        f.provider
                .calendars()
                .put(new dev.interlock.model.calendar.Calendar("holidays", null, List.of(), List.of("2026-12-25")));
        f.clock.advance(Duration.ofMinutes(59));
        JsonNode tooSoon = tick();
        f.clock.advance(Duration.ofMinutes(2));
        JsonNode fixed = tick();

        assertThat(broken.get("errors")).hasSize(1);
        assertThat(broken.get("errors").get(0).asText()).startsWith("orders: ").contains("holidays");
        assertThat(broken.get("markersWritten")).isEmpty();
        assertThat(tooSoon.get("dueEntries").asInt()).isZero();
        assertThat(fixed.get("markersWritten").toString()).isEqualTo("[\"orders/daily/2026-03-02\"]");
    }

    @Test
    void aStoreFaultStopsTheTickAndTheNextFinishesWithoutDoingAnythingTwice() {
        for (int i = 0; i < 20; i++) {
            f.register("p%02d".formatted(i), "schedules:\n  - {name: daily, after: '08:00'}\n");
        }
        CountingProvider flaky = CountingProvider.around(f.provider).failingOnce("writeMarker", 7);

        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> new Watchdog(f.collaborators(flaky.provider())).run(f.watchdogRequest()))
                .isInstanceOf(dev.interlock.store.StoreException.class);
        JsonNode next = tick();

        assertThat(next.get("caughtUp").asBoolean()).isTrue();
        for (int i = 0; i < 20; i++) {
            assertThat(f.provider.cascade().markers("p%02d".formatted(i), Fixture.DATE))
                    .as("p%02d", i)
                    .hasSize(1);
        }
        assertThat(tick().get("dueEntries").asInt()).isZero();
    }
}
