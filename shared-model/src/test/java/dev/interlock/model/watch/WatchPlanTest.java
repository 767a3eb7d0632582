package dev.interlock.model.watch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.testing.Documents;
import java.time.Instant;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

class WatchPlanTest {

    private static final Instant MONDAY_0807 = Instant.parse("2026-03-02T08:07:00Z");

    private static PipelineConfig config(String yaml) {
        return Documents.read(
                "name: orders\narchetype: batch-ingestion\ntrigger: {type: http, url: https://x.example.com}\n" + yaml,
                PipelineConfig.class);
    }

    private static WatchEvent event(String schedule, String date, WatchEvent.Kind kind, String at) {
        return new WatchEvent(schedule, LocalDate.parse(date), kind, Instant.parse(at));
    }

    @Test
    void aNewPipelineIsDueAtItsFirstWindowAfterRegistration() {
        PipelineConfig config = config("schedules: [{name: daily, after: '08:00', deadline: '09:00'}]");

        PipelineWatch watch = WatchPlan.registered(config, null, MONDAY_0807);

        // Today's window opened seven minutes before the registration: tomorrow's is the first.
        assertThat(watch.dueAt()).isEqualTo(Instant.parse("2026-03-03T08:00:00Z"));
        assertThat(watch.schedules().get("daily").since()).isEqualTo(MONDAY_0807);
        assertThat(WatchPlan.due(config, watch, Instant.parse("2026-03-02T23:00:00Z"))
                        .events())
                .isEmpty();
        assertThat(WatchPlan.due(config, watch, Instant.parse("2026-03-03T10:00:00Z"))
                        .events())
                .containsExactly(
                        event("daily", "2026-03-03", WatchEvent.Kind.WINDOW_OPENS, "2026-03-03T08:00:00Z"),
                        event("daily", "2026-03-03", WatchEvent.Kind.DEADLINE_PASSED, "2026-03-03T09:00:00.001Z"));
    }

    @Test
    void withCatchUpTheRegistrationDaysOpenWindowIsDueAtOnceAndItsDeadlineStillCounts() {
        PipelineConfig config = config("catchUp: true\nschedules: [{name: daily, after: '08:00', deadline: '09:00'}]");

        PipelineWatch watch = WatchPlan.registered(config, null, MONDAY_0807);

        assertThat(watch.dueAt()).isEqualTo(MONDAY_0807);
        assertThat(WatchPlan.due(config, watch, Instant.parse("2026-03-02T09:30:00Z"))
                        .events())
                .containsExactly(
                        event("daily", "2026-03-02", WatchEvent.Kind.WINDOW_OPENS, "2026-03-02T08:00:00Z"),
                        event("daily", "2026-03-02", WatchEvent.Kind.DEADLINE_PASSED, "2026-03-02T09:00:00.001Z"));
    }

    @Test
    void aDeadlineEarlierThanTheWindowBelongsToTheWindowsDateAndFallsDueTheNextDay() {
        PipelineConfig config = config("schedules: [{name: nightly, after: '22:00', deadline: '02:00'}]");
        PipelineWatch watch = WatchPlan.registered(config, null, MONDAY_0807);

        PipelineWatch afterOpening = WatchPlan.advanced(config, watch, Instant.parse("2026-03-02T22:00:00Z"));

        assertThat(watch.dueAt()).isEqualTo(Instant.parse("2026-03-02T22:00:00Z"));
        assertThat(afterOpening.dueAt()).isEqualTo(Instant.parse("2026-03-03T02:00:00.001Z"));
        assertThat(WatchPlan.due(config, afterOpening, Instant.parse("2026-03-03T03:00:00Z"))
                        .events())
                .containsExactly(
                        event("nightly", "2026-03-02", WatchEvent.Kind.DEADLINE_PASSED, "2026-03-03T02:00:00.001Z"));
    }

    @Test
    void aDurationDeadlineCountsFromTheWindowInTheSchedulesZone() {
        PipelineConfig config =
                config("schedules: [{name: daily, after: '06:00', deadline: '+45m', timezone: America/New_York}]");

        PipelineWatch watch = WatchPlan.registered(config, null, MONDAY_0807);
        PipelineWatch opened = WatchPlan.advanced(config, watch, watch.dueAt());

        assertThat(watch.dueAt()).isEqualTo(Instant.parse("2026-03-02T11:00:00Z"));
        assertThat(opened.dueAt()).isEqualTo(Instant.parse("2026-03-02T11:45:00.001Z"));
    }

    @Test
    void aWindowOnTheDaylightSavingGapOpensAtTheShiftedTime() {
        // 2026-03-08 02:30 does not exist in New York: the clocks jump from 02:00 to 03:00.
        PipelineConfig config = config("schedules: [{name: daily, after: '02:30', timezone: America/New_York}]");
        PipelineWatch watch = WatchPlan.registered(config, null, Instant.parse("2026-03-07T12:00:00Z"));

        assertThat(watch.dueAt()).isEqualTo(Instant.parse("2026-03-08T07:30:00Z"));
        assertThat(WatchPlan.advanced(config, watch, watch.dueAt()).dueAt())
                .isEqualTo(Instant.parse("2026-03-09T06:30:00Z"));
    }

    @Test
    void reRegistrationKeepsUnchangedSchedulesAndRestartsChangedOnes() {
        PipelineConfig first = config("schedules: [{name: a, after: '08:00'}, {name: b, after: '09:00'}]");
        PipelineWatch watch = WatchPlan.registered(first, null, Instant.parse("2026-03-01T00:00:00Z"));
        PipelineConfig second =
                config("schedules: [{name: a, after: '08:00'}, {name: b, after: '10:00'}, {name: c, after: '11:00'}]");

        PipelineWatch again = WatchPlan.registered(second, watch, MONDAY_0807);

        assertThat(again.schedules().get("a")).isEqualTo(watch.schedules().get("a"));
        assertThat(again.schedules().get("b").since()).isEqualTo(MONDAY_0807);
        assertThat(again.schedules().get("c").since()).isEqualTo(MONDAY_0807);
        assertThat(again.handledThrough()).isEqualTo(watch.handledThrough());
        assertThat(again.version()).isEqualTo(watch.version() + 1);
    }

    @Test
    void aScheduleThatCannotBeComputedIsAProblemDueNowAndRecheckedHourly() {
        PipelineConfig config = config("schedules: [{name: daily, after: '08:00', timezone: Nowhere/Land}]");

        PipelineWatch watch = WatchPlan.registered(config, null, MONDAY_0807);
        WatchPlan.Due due = WatchPlan.due(config, watch, MONDAY_0807);

        assertThat(watch.dueAt()).isEqualTo(MONDAY_0807);
        assertThat(due.events()).isEmpty();
        assertThat(due.problems()).containsOnlyKeys("daily");
        assertThat(WatchPlan.advanced(config, watch, MONDAY_0807).dueAt())
                .isEqualTo(MONDAY_0807.plus(WatchPlan.PROBLEM_RECHECK));
    }

    @Test
    void aPipelineWithoutWindowsOrDeadlinesIsNeverDue() {
        assertThat(WatchPlan.registered(config(""), null, MONDAY_0807).dueAt()).isNull();
    }

    @Test
    void aWatchRoundTripsThroughJson() {
        PipelineWatch watch =
                WatchPlan.registered(config("schedules: [{name: daily, after: '08:00'}]"), null, MONDAY_0807);

        assertThat(InterlockJson.read(InterlockJson.write(watch), PipelineWatch.class))
                .isEqualTo(watch);
    }
}
