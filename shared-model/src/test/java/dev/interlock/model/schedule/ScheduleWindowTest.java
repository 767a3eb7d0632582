package dev.interlock.model.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.pipeline.ScheduleConfig;
import dev.interlock.model.pipeline.SlaConfig;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ScheduleWindowTest {

    private static final LocalDate WINTER_DAY = LocalDate.of(2026, 2, 23);

    @Test
    void wallClockTimesAreReadInTheScheduleZone() {
        var window = window(new ScheduleConfig("daily", "06:00", "07:30", "Europe/Berlin"), null, WINTER_DAY);
        assertThat(window.zone()).isEqualTo(ZoneId.of("Europe/Berlin"));
        assertThat(window.opensAt()).isEqualTo(Instant.parse("2026-02-23T05:00:00Z"));
        assertThat(window.completionDeadline()).isEqualTo(Instant.parse("2026-02-23T06:30:00Z"));
        assertThat(window.evaluationDeadline()).isNull();
        assertThat(window.validationDeadline()).isNull();
    }

    @Test
    void spansCountFromTheWindowOpening() {
        var window = window(new ScheduleConfig("daily", "06:00", "+45m", "UTC"), null, WINTER_DAY);
        assertThat(window.completionDeadline()).isEqualTo(Instant.parse("2026-02-23T06:45:00Z"));
    }

    @Test
    void withoutAfterTheWindowOpensAtMidnightOfTheExecutionDate() {
        var window = window(new ScheduleConfig("daily", null, "1h30m", "America/New_York"), null, WINTER_DAY);
        assertThat(window.opensAt()).isEqualTo(Instant.parse("2026-02-23T05:00:00Z"));
        assertThat(window.completionDeadline()).isEqualTo(Instant.parse("2026-02-23T06:30:00Z"));
    }

    @Test
    void aDeadlineEarlierThanAfterRollsToTheNextDay() {
        var window = window(new ScheduleConfig("nightly", "22:00", "02:00", null), null, WINTER_DAY);
        assertThat(window.opensAt()).isEqualTo(Instant.parse("2026-02-23T22:00:00Z"));
        assertThat(window.completionDeadline()).isEqualTo(Instant.parse("2026-02-24T02:00:00Z"));
    }

    @Test
    void aDeadlineEqualToAfterStaysOnTheSameDay() {
        var window = window(new ScheduleConfig("s", "06:00", "06:00", null), null, WINTER_DAY);
        assertThat(window.completionDeadline()).isEqualTo(window.opensAt());
    }

    @Test
    void theScheduleZoneDefaultsToTheSlaZoneThenUtc() {
        var sla = new SlaConfig("08:00", "09:00", "+2h", "Asia/Tokyo");
        var fromSla = window(new ScheduleConfig("daily", "06:00", null, null), sla, WINTER_DAY);
        assertThat(fromSla.zone()).isEqualTo(ZoneId.of("Asia/Tokyo"));
        assertThat(fromSla.opensAt()).isEqualTo(Instant.parse("2026-02-22T21:00:00Z"));
        assertThat(fromSla.evaluationDeadline()).isEqualTo(Instant.parse("2026-02-22T23:00:00Z"));
        assertThat(fromSla.completionDeadline()).isEqualTo(Instant.parse("2026-02-23T00:00:00Z"));
        assertThat(fromSla.validationDeadline()).isEqualTo(Instant.parse("2026-02-22T23:00:00Z"));

        var utc = window(new ScheduleConfig("daily", "06:00", null, null), null, WINTER_DAY);
        assertThat(utc.zone()).isEqualTo(ZoneOffset.UTC);
    }

    @Test
    void aScheduleDeadlineOverridesTheSlaCompletionDeadline() {
        var sla = new SlaConfig(null, "09:00", null, "UTC");
        assertThat(window(new ScheduleConfig("daily", null, "10:00", null), sla, WINTER_DAY)
                        .completionDeadline())
                .isEqualTo(Instant.parse("2026-02-23T10:00:00Z"));
        assertThat(window(new ScheduleConfig("daily", null, null, null), sla, WINTER_DAY)
                        .completionDeadline())
                .isEqualTo(Instant.parse("2026-02-23T09:00:00Z"));
    }

    @Test
    void anUnlistedScheduleIdGetsAMidnightWindowInTheSlaZone() {
        var config = config(
                List.of(new ScheduleConfig("daily", "06:00", null, null)),
                new SlaConfig(null, "05:00", null, "Europe/Berlin"));
        var window = ScheduleWindow.of(config, "h07", WINTER_DAY);
        assertThat(window.scheduleId()).isEqualTo("h07");
        assertThat(window.opensAt()).isEqualTo(Instant.parse("2026-02-22T23:00:00Z"));
        assertThat(window.completionDeadline()).isEqualTo(Instant.parse("2026-02-23T04:00:00Z"));
    }

    @Test
    void springForwardDayIsTwentyThreeHoursLongForSpansButWallClockStaysWallClock() {
        LocalDate springForward = LocalDate.of(2026, 3, 29);
        var span = window(new ScheduleConfig("daily", null, "3h", "Europe/Berlin"), null, springForward);
        assertThat(span.opensAt()).isEqualTo(Instant.parse("2026-03-28T23:00:00Z"));
        assertThat(span.completionDeadline()).isEqualTo(Instant.parse("2026-03-29T02:00:00Z")); // 04:00 CEST
        var wall = window(new ScheduleConfig("daily", null, "03:00", "Europe/Berlin"), null, springForward);
        assertThat(wall.completionDeadline()).isEqualTo(Instant.parse("2026-03-29T01:00:00Z")); // 03:00 CEST
    }

    @Test
    void aTimeInsideTheSpringForwardGapMovesLaterByTheGap() {
        var window =
                window(new ScheduleConfig("daily", "02:30", "+30m", "Europe/Berlin"), null, LocalDate.of(2026, 3, 29));
        assertThat(window.opensAt()).isEqualTo(Instant.parse("2026-03-29T01:30:00Z")); // 03:30 CEST
        assertThat(window.completionDeadline()).isEqualTo(Instant.parse("2026-03-29T02:00:00Z"));
    }

    @Test
    void fallBackDayUsesElapsedTimeForSpans() {
        LocalDate fallBack = LocalDate.of(2026, 10, 25);
        var span = window(new ScheduleConfig("daily", null, "+4h", "Europe/Berlin"), null, fallBack);
        assertThat(span.opensAt()).isEqualTo(Instant.parse("2026-10-24T22:00:00Z"));
        assertThat(span.completionDeadline()).isEqualTo(Instant.parse("2026-10-25T02:00:00Z")); // 03:00 CET
        var wall = window(new ScheduleConfig("daily", null, "04:00", "Europe/Berlin"), null, fallBack);
        assertThat(wall.completionDeadline()).isEqualTo(Instant.parse("2026-10-25T03:00:00Z"));
    }

    @Test
    void aSkippedCalendarDayStillYieldsADeadlineAfterTheOpening() {
        // Samoa skipped 2011-12-30 entirely; the opening shifts to the 31st, so the deadline rolls twice.
        var window =
                window(new ScheduleConfig("daily", "10:00", "09:00", "Pacific/Apia"), null, LocalDate.of(2011, 12, 30));
        assertThat(window.opensAt()).isEqualTo(Instant.parse("2011-12-30T20:00:00Z"));
        assertThat(window.completionDeadline()).isEqualTo(Instant.parse("2011-12-31T19:00:00Z"));
    }

    @Test
    void breachedMeansStrictlyAfterTheDeadline() {
        Instant deadline = Instant.parse("2026-02-23T06:00:00Z");
        assertThat(ScheduleWindow.breached(deadline, deadline)).isFalse();
        assertThat(ScheduleWindow.breached(deadline, deadline.plusMillis(1))).isTrue();
        assertThat(ScheduleWindow.breached(null, deadline)).isFalse();
        var window = window(new ScheduleConfig("daily", "06:00", null, null), null, WINTER_DAY);
        assertThat(window.isOpen(Instant.parse("2026-02-23T05:59:59Z"))).isFalse();
        assertThat(window.isOpen(Instant.parse("2026-02-23T06:00:00Z"))).isTrue();
    }

    @Test
    void anUnknownZoneIsAnIllegalArgument() {
        assertThatThrownBy(() -> window(new ScheduleConfig("daily", null, null, "Mars/Olympus"), null, WINTER_DAY))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("'Mars/Olympus' is not a time zone");
    }

    @ParameterizedTest
    @CsvSource({
        "45m,PT45M",
        "+45m,PT45M",
        "1h30m,PT1H30M",
        "2h,PT2H",
        "90s,PT1M30S",
        "1h2m3s,PT1H2M3S",
        "0m,PT0S",
        " 5m ,PT5M"
    })
    void spansParse(String text, Duration expected) {
        assertThat(TimeSpan.parse(text)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "-5m", "1h30", "30m1h", "1.5h", "5 m", "m", "+", "1d", "PT5M"})
    void malformedSpansAreRejected(String text) {
        assertThatThrownBy(() -> TimeSpan.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expected a duration like 45m");
    }

    @ParameterizedTest
    @CsvSource({"7:05,07:05", "00:00,00:00", "23:59,23:59"})
    void clockTimesParse(String text, LocalTime expected) {
        assertThat(ClockTime.parse(text)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"24:00", "12:60", "7:5", "123:00", "noon", "12:00:00"})
    void malformedClockTimesAreRejected(String text) {
        assertThatThrownBy(() -> ClockTime.parse(text)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void deadlineSpecsAreWallClockOrSpan() {
        assertThat(DeadlineSpec.parse("07:30")).isEqualTo(new DeadlineSpec.WallClock(LocalTime.of(7, 30)));
        assertThat(DeadlineSpec.parse("+1h")).isEqualTo(new DeadlineSpec.AfterOpening(Duration.ofHours(1)));
        assertThatThrownBy(() -> DeadlineSpec.parse("25:00")).hasMessageContaining("not a time of day");
        assertThatThrownBy(() -> DeadlineSpec.parse("soon"))
                .hasMessage("expected HH:MM or a duration like 45m / 1h30m, got 'soon'");
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "{0} {1} at {2}: {3}")
    @org.junit.jupiter.params.provider.CsvSource({
        // zone set on, zone, instant, the current date
        "schedule, Asia/Tokyo,          2026-03-01T14:30:00Z, 2026-03-01",
        "schedule, Asia/Tokyo,          2026-03-01T15:30:00Z, 2026-03-02",
        "sla,      America/Los_Angeles, 2026-03-02T07:30:00Z, 2026-03-01",
        "sla,      America/Los_Angeles, 2026-03-02T08:30:00Z, 2026-03-02",
        "none,     UTC,                 2026-03-01T23:59:59Z, 2026-03-01"
    })
    void theCurrentDateIsTodayInTheScheduleZoneElseTheSlaZoneElseUtc(
            String on, String zone, Instant now, LocalDate expected) {
        ScheduleConfig schedule = new ScheduleConfig("daily", null, null, on.equals("schedule") ? zone : null);
        SlaConfig sla = on.equals("sla") ? new SlaConfig(null, null, null, zone) : null;
        assertThat(ScheduleWindow.currentDate(config(List.of(schedule), sla), "daily", now))
                .isEqualTo(expected);
        // A schedule id the config does not list is read in the SLA zone.
        assertThat(ScheduleWindow.currentDate(config(List.of(schedule), sla), "adhoc", now))
                .isEqualTo(LocalDate.ofInstant(now, on.equals("sla") ? ZoneId.of(zone) : java.time.ZoneOffset.UTC));
    }

    private static ScheduleWindow window(ScheduleConfig schedule, SlaConfig sla, LocalDate date) {
        return ScheduleWindow.of(config(List.of(schedule), sla), schedule.name(), date);
    }

    static PipelineConfig config(List<ScheduleConfig> schedules, SlaConfig sla) {
        return new PipelineConfig(
                "p1", null, null, 0, null, null, null, sla, schedules, null, null, false, 60, 30, 120, 7200, false,
                null, null, null, null, null, null, null, null);
    }
}
