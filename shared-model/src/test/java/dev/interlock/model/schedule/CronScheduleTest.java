package dev.interlock.model.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.testing.Documents;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Cron schedules: one window per firing, on the schedule zone's own clock, daylight-saving days included. */
class CronScheduleTest {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    /** Berlin springs forward 02:00 → 03:00 on this day: no 02:xx exists. */
    private static final LocalDate SPRING_FORWARD = LocalDate.of(2026, 3, 29);
    /** Berlin falls back 03:00 → 02:00 on this day: 02:xx happens twice. */
    private static final LocalDate FALL_BACK = LocalDate.of(2026, 10, 25);

    private static PipelineConfig hourly(String zone, String extra) {
        return Documents.read(
                "name: orders\narchetype: batch-ingestion\ntrigger: {type: http, url: https://x.example.com}\n"
                        + "schedules: [{name: hourly, cron: '0 * * * *', timezone: " + zone + ", deadline: '+40m'"
                        + extra + "}]",
                PipelineConfig.class);
    }

    private static List<String> hours(int... hours) {
        return IntStream.of(hours)
                .mapToObj(h -> String.format("hourly.%02d00", h))
                .toList();
    }

    @Test
    void anOrdinaryDayHasOneWindowPerFiringNamedByItsLocalTime() {
        List<String> ids = ScheduleWindows.idsOn(hourly("Europe/Berlin", ""), LocalDate.of(2026, 3, 2));
        assertThat(ids).hasSize(24).startsWith("hourly.0000", "hourly.0100").endsWith("hourly.2300");
    }

    @Test
    void theSkippedHourOfASpringForwardDayHasNoWindow() {
        List<String> ids = ScheduleWindows.idsOn(hourly("Europe/Berlin", ""), SPRING_FORWARD);
        assertThat(ids).hasSize(23).doesNotContain("hourly.0200").containsSequence(hours(1, 3));
        assertThat(ScheduleWindows.problem(hourly("Europe/Berlin", ""), "hourly.0200", SPRING_FORWARD))
                .hasValueSatisfying(
                        p -> assertThat(p).contains("no window at 02:00").contains("skips that time"));
    }

    @Test
    void theRepeatedHourOfAFallBackDayIsOneWindowAtItsFirstOccurrence() {
        PipelineConfig config = hourly("Europe/Berlin", "");
        List<String> ids = ScheduleWindows.idsOn(config, FALL_BACK);
        assertThat(ids).hasSize(24).containsOnlyOnce("hourly.0200").containsSequence(hours(1, 2, 3));
        ScheduleWindow two = ScheduleWindow.of(config, "hourly.0200", FALL_BACK);
        assertThat(two.opensAt()).isEqualTo(Instant.parse("2026-10-25T00:00:00Z")); // 02:00+02:00, the first
        assertThat(ScheduleWindow.of(config, "hourly.0300", FALL_BACK).opensAt())
                .isEqualTo(Instant.parse("2026-10-25T02:00:00Z")); // two hours later: the repeat ran no window
    }

    @Test
    void aZoneWithoutDaylightSavingHasTwentyFourWindowsEveryDayAtItsOwnOffset() {
        PipelineConfig kolkata = hourly("Asia/Kolkata", "");
        for (LocalDate date : List.of(SPRING_FORWARD, FALL_BACK, LocalDate.of(2026, 1, 1))) {
            assertThat(ScheduleWindows.idsOn(kolkata, date)).hasSize(24);
        }
        ScheduleWindow window = ScheduleWindow.of(kolkata, "hourly.1400", SPRING_FORWARD);
        assertThat(window.opensAt()).isEqualTo(Instant.parse("2026-03-29T08:30:00Z"));
        assertThat(window.completionDeadline()).isEqualTo(Instant.parse("2026-03-29T09:10:00Z"));
    }

    @Test
    void afterAndDeadlineCountFromEachFiring() {
        PipelineConfig config = hourly("UTC", ", after: '+5m'");
        ScheduleWindow window = ScheduleWindow.of(config, "hourly.2300", LocalDate.of(2026, 3, 2));
        assertThat(window.opensAt()).isEqualTo(Instant.parse("2026-03-02T23:05:00Z"));
        // The last window's deadline lies on the next day; it still belongs to the window's date.
        assertThat(window.completionDeadline()).isEqualTo(Instant.parse("2026-03-02T23:45:00Z"));
    }

    @Test
    void aWeeklyCronHasWindowsOnlyOnItsDays() {
        CronSchedule mondays = CronSchedule.parse("30 6 * * MON");
        assertThat(mondays.firingsOn(LocalDate.of(2026, 3, 2), BERLIN)).containsExactly(LocalTime.of(6, 30));
        assertThat(mondays.firingsOn(LocalDate.of(2026, 3, 3), BERLIN)).isEmpty();
    }

    @Test
    void aQuarterHourlyCronStepsEveryFifteenMinutes() {
        assertThat(CronSchedule.parse("*/15 * * * *").firingsOn(SPRING_FORWARD, BERLIN))
                .hasSize(23 * 4)
                .contains(LocalTime.of(1, 45), LocalTime.of(3, 0))
                .doesNotContain(LocalTime.of(2, 15));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "0 0 * * * *|six fields|seconds field is not supported",
                "61 * * * *|out of range|is not a cron expression",
                "0 0 31 2 *|never fires|never fires",
                "every hour|words|has 2 fields",
                "''|empty|five fields"
            })
    void aBadCronIsRefusedWithItsReason(String cron, String what, String message) {
        assertThatThrownBy(() -> CronSchedule.parse(cron)).hasMessageContaining(message);
    }
}
