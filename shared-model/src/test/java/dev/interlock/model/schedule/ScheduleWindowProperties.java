package dev.interlock.model.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.pipeline.ScheduleConfig;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Locale;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

class ScheduleWindowProperties {

    @Property(tries = 2000)
    void aWallClockDeadlineNeverPrecedesTheOpeningAndRollsAtMostAFewDays(
            @ForAll("zones") ZoneId zone,
            @ForAll("dates") LocalDate date,
            @ForAll("times") LocalTime after,
            @ForAll("times") LocalTime deadline) {
        ScheduleWindow window = window(zone, date, hhmm(after), hhmm(deadline));
        assertThat(window.completionDeadline()).isAfterOrEqualTo(window.opensAt());
        assertThat(Duration.between(window.opensAt(), window.completionDeadline()))
                .isLessThanOrEqualTo(Duration.ofDays(3));
    }

    @Property(tries = 2000)
    void aSpanDeadlineIsExactlyThatMuchElapsedTimeAfterTheOpening(
            @ForAll("zones") ZoneId zone,
            @ForAll("dates") LocalDate date,
            @ForAll("times") LocalTime after,
            @ForAll @IntRange(min = 0, max = 48) int hours,
            @ForAll @IntRange(min = 0, max = 59) int minutes) {
        ScheduleWindow window = window(zone, date, hhmm(after), "+" + hours + "h" + minutes + "m");
        assertThat(Duration.between(window.opensAt(), window.completionDeadline()))
                .isEqualTo(Duration.ofHours(hours).plusMinutes(minutes));
    }

    @Property(tries = 1000)
    void inUtcADeadlineBeforeAfterIsTheNextDayAndOtherwiseTheSameDay(
            @ForAll("dates") LocalDate date, @ForAll("times") LocalTime after, @ForAll("times") LocalTime deadline) {
        ScheduleWindow window = window(ZoneOffset.UTC, date, hhmm(after), hhmm(deadline));
        ZonedDateTime due = window.completionDeadline().atZone(ZoneOffset.UTC);
        assertThat(due.toLocalTime()).isEqualTo(deadline);
        assertThat(due.toLocalDate()).isEqualTo(deadline.isBefore(after) ? date.plusDays(1) : date);
    }

    @Property(tries = 1000)
    void aWallClockTimeThatExistsInTheZoneIsKeptExactly(
            @ForAll("zones") ZoneId zone, @ForAll("dates") LocalDate date, @ForAll("times") LocalTime deadline) {
        ScheduleWindow window = window(zone, date, null, hhmm(deadline));
        ZonedDateTime due = window.completionDeadline().atZone(zone);
        boolean exists = zone.getRules().getValidOffsets(date.atTime(deadline)).size() > 0;
        boolean midnightExists =
                zone.getRules().getValidOffsets(date.atStartOfDay()).size() > 0;
        if (exists && midnightExists) {
            assertThat(due.toLocalTime()).isEqualTo(deadline);
            assertThat(due.toLocalDate()).isEqualTo(date);
        }
    }

    @Property(tries = 500)
    void theWindowOpensOnTheExecutionDateInItsZone(@ForAll("zones") ZoneId zone, @ForAll("dates") LocalDate date) {
        ScheduleWindow window = window(zone, date, null, null);
        assertThat(window.opensAt()).isEqualTo(date.atStartOfDay(zone).toInstant());
        assertThat(window.completionDeadline()).isNull();
    }

    @Property(tries = 500)
    void spansWrittenInAnyAcceptedFormParseToTheirDuration(
            @ForAll @IntRange(min = 0, max = 99) int h,
            @ForAll @IntRange(min = 0, max = 59) int m,
            @ForAll @IntRange(min = 0, max = 59) int s,
            @ForAll boolean plus) {
        Duration expected = Duration.ofHours(h).plusMinutes(m).plusSeconds(s);
        String text = (plus ? "+" : "") + h + "h" + m + "m" + s + "s";
        assertThat(TimeSpan.parse(text)).isEqualTo(expected);
        assertThat(TimeSpan.parse(m + "m")).isEqualTo(Duration.ofMinutes(m));
    }

    @Property(tries = 500)
    void anExcludedWeekdayExcludesExactlyTheDatesOnThatWeekday(
            @ForAll DayOfWeek day, @ForAll("dates") LocalDate date, @ForAll boolean upper) {
        String name = upper ? day.name() : day.name().toLowerCase(Locale.ROOT);
        var config = new dev.interlock.model.pipeline.ExclusionConfig(null, List.of(name), List.of());
        assertThat(Exclusions.reason(config, null, date).isPresent()).isEqualTo(date.getDayOfWeek() == day);
    }

    @Provide
    Arbitrary<ZoneId> zones() {
        return Arbitraries.of(ZoneId.getAvailableZoneIds().stream().sorted().toList())
                .map(ZoneId::of);
    }

    @Provide
    Arbitrary<LocalDate> dates() {
        // Wide enough to include historic transitions (e.g. Pacific/Apia skipping 2011-12-30) and future DST.
        return Arbitraries.longs()
                .between(
                        LocalDate.of(1990, 1, 1).toEpochDay(),
                        LocalDate.of(2060, 12, 31).toEpochDay())
                .map(LocalDate::ofEpochDay);
    }

    @Provide
    Arbitrary<LocalTime> times() {
        return Combinators.combine(
                        Arbitraries.integers().between(0, 23),
                        Arbitraries.integers().between(0, 59))
                .as(LocalTime::of);
    }

    private static String hhmm(LocalTime time) {
        return time == null ? null : String.format("%02d:%02d", time.getHour(), time.getMinute());
    }

    private static ScheduleWindow window(ZoneId zone, LocalDate date, String after, String deadline) {
        var schedule = new ScheduleConfig("daily", after, deadline, zone.getId());
        var config = new PipelineConfig(
                "p1",
                null,
                null,
                0,
                null,
                null,
                null,
                null,
                List.of(schedule),
                null,
                null,
                false,
                60,
                30,
                120,
                7200,
                false,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null);
        return ScheduleWindow.of(config, "daily", date);
    }
}
