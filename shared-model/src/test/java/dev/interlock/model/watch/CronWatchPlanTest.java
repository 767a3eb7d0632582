package dev.interlock.model.watch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.testing.Documents;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The watchdog's plan for cron schedules: each firing is a window opening, each window its own deadline. */
class CronWatchPlanTest {

    private static PipelineConfig config(String schedules) {
        return Documents.read(
                "name: orders\narchetype: batch-ingestion\ntrigger: {type: http, url: https://x.example.com}\n"
                        + "schedules: " + schedules,
                PipelineConfig.class);
    }

    private static WatchEvent event(String schedule, String date, WatchEvent.Kind kind, String at) {
        return new WatchEvent(schedule, LocalDate.parse(date), kind, Instant.parse(at));
    }

    @Test
    void anHourlyCronOpensAWindowEveryHourAndMissesEachDeadlineOnItsOwn() {
        PipelineConfig config = config("[{name: hourly, cron: '0 * * * *', timezone: UTC, deadline: '+40m'}]");
        PipelineWatch watch = WatchPlan.registered(config, null, Instant.parse("2026-03-02T08:07:00Z"));

        // 08:00 opened before the registration: neither it nor its deadline is the watchdog's (forward-only).
        assertThat(watch.dueAt()).isEqualTo(Instant.parse("2026-03-02T09:00:00Z"));
        assertThat(WatchPlan.due(config, watch, Instant.parse("2026-03-02T10:00:00Z"))
                        .events())
                .containsExactly(
                        event("hourly.0900", "2026-03-02", WatchEvent.Kind.WINDOW_OPENS, "2026-03-02T09:00:00Z"),
                        event("hourly.0900", "2026-03-02", WatchEvent.Kind.DEADLINE_PASSED, "2026-03-02T09:40:00.001Z"),
                        event("hourly.1000", "2026-03-02", WatchEvent.Kind.WINDOW_OPENS, "2026-03-02T10:00:00Z"));
    }

    @Test
    void theLastWindowOfADayKeepsItsDateWhenItsDeadlineFallsOnTheNext() {
        PipelineConfig config = config("[{name: hourly, cron: '0 * * * *', timezone: UTC, deadline: '+90m'}]");
        PipelineWatch watch = WatchPlan.registered(config, null, Instant.parse("2026-03-02T22:30:00Z"));

        List<WatchEvent> events = WatchPlan.due(config, watch, Instant.parse("2026-03-03T00:45:00Z"))
                .events();

        assertThat(events)
                .contains(
                        event("hourly.2300", "2026-03-02", WatchEvent.Kind.DEADLINE_PASSED, "2026-03-03T00:30:00.001Z"),
                        event("hourly.0000", "2026-03-03", WatchEvent.Kind.WINDOW_OPENS, "2026-03-03T00:00:00Z"));
    }

    @Test
    void aSpringForwardNightInBerlinWakesNoWindowForTheSkippedHour() {
        PipelineConfig config = config("[{name: hourly, cron: '0 * * * *', timezone: Europe/Berlin}]");
        PipelineWatch watch = WatchPlan.registered(config, null, Instant.parse("2026-03-28T23:30:00Z"));

        List<WatchEvent> events = WatchPlan.due(config, watch, Instant.parse("2026-03-29T02:30:00Z"))
                .events();

        // 00:00+01 = 23:00Z, 01:00+01 = 00:00Z, (02:00 skipped), 03:00+02 = 01:00Z, 04:00+02 = 02:00Z
        assertThat(events)
                .extracting(WatchEvent::scheduleId)
                .containsExactly("hourly.0100", "hourly.0300", "hourly.0400");
    }

    @Test
    void aFallBackNightInBerlinWakesTheRepeatedHourOnce() {
        PipelineConfig config = config("[{name: hourly, cron: '0 * * * *', timezone: Europe/Berlin}]");
        PipelineWatch watch = WatchPlan.registered(config, null, Instant.parse("2026-10-24T23:30:00Z"));

        List<WatchEvent> events = WatchPlan.due(config, watch, Instant.parse("2026-10-25T03:30:00Z"))
                .events();

        // 02:00+02 = 00:00Z; 02:00+01 (01:00Z) is the same local time and has no window of its own.
        assertThat(events)
                .extracting(WatchEvent::scheduleId, WatchEvent::at)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("hourly.0200", Instant.parse("2026-10-25T00:00:00Z")),
                        org.assertj.core.groups.Tuple.tuple("hourly.0300", Instant.parse("2026-10-25T02:00:00Z")),
                        org.assertj.core.groups.Tuple.tuple("hourly.0400", Instant.parse("2026-10-25T03:00:00Z")));
    }

    @Test
    void aWeeklyCronIsDueAtItsNextFiringDaysAhead() {
        PipelineConfig config = config("[{name: weekly, cron: '30 6 * * MON', timezone: UTC}]");
        // A Tuesday: the next firing is six days ahead, beyond the plain schedules' two-day look-ahead.
        PipelineWatch watch = WatchPlan.registered(config, null, Instant.parse("2026-03-03T08:00:00Z"));

        assertThat(watch.dueAt()).isEqualTo(Instant.parse("2026-03-09T06:30:00Z"));
        PipelineWatch advanced = WatchPlan.advanced(config, watch, Instant.parse("2026-03-09T06:30:00Z"));
        assertThat(advanced.dueAt()).isEqualTo(Instant.parse("2026-03-16T06:30:00Z"));
    }

    @Test
    void changingTheCronRestartsTheScheduleForwardOnly() {
        PipelineConfig hourly = config("[{name: s, cron: '0 * * * *', timezone: UTC}]");
        PipelineConfig quarterly = config("[{name: s, cron: '*/15 * * * *', timezone: UTC}]");
        Instant first = Instant.parse("2026-03-02T08:07:00Z");
        PipelineWatch before = WatchPlan.registered(hourly, null, first);
        PipelineWatch after = WatchPlan.registered(quarterly, before, first.plusSeconds(600));

        assertThat(after.schedules().get("s").since()).isEqualTo(first.plusSeconds(600));
        assertThat(after.dueAt()).isEqualTo(Instant.parse("2026-03-02T08:30:00Z"));
    }
}
