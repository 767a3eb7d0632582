package dev.interlock.model.rollup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.testing.Documents;
import java.time.LocalDate;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The periods a rollup covers on a date: an upstream's windows, or a sensor's 24 hourly partitions. */
class RollupPeriodsTest {

    private static final LocalDate DATE = LocalDate.of(2026, 3, 1);
    /** Europe/Berlin springs forward at 02:00 to 03:00. */
    private static final LocalDate SPRING_FORWARD = LocalDate.of(2026, 3, 29);
    /** Europe/Berlin falls back at 03:00 to 02:00: 02:xx happens twice. */
    private static final LocalDate FALL_BACK = LocalDate.of(2026, 10, 25);

    static PipelineConfig pipeline(String name, String schedules) {
        return Documents.read("""
                name: %s
                archetype: batch-ingestion
                trigger: {type: http, url: "https://jobs.example.com/run"}
                %s
                """.formatted(name, schedules), PipelineConfig.class);
    }

    private static List<String> hourly(String schedule, int... skipped) {
        return IntStream.range(0, 24)
                .filter(h -> IntStream.of(skipped).noneMatch(s -> s == h))
                .mapToObj(h -> "%s.%02d00".formatted(schedule, h))
                .toList();
    }

    private static final PipelineConfig HOURLY_UTC =
            pipeline("up", "schedules: [{name: hourly, cron: '0 * * * *', timezone: UTC}]");

    @Test
    void anHourlyCronUpstreamInUtcHasTwentyFourWindowsADay() {
        assertThat(RollupPeriods.upstreamWindows(HOURLY_UTC, null, DATE)).isEqualTo(hourly("hourly"));
    }

    @Test
    void aNamedScheduleGivesThatSchedulesWindowsOnly() {
        PipelineConfig two = pipeline(
                "up", "schedules: [{name: hourly, cron: '0 * * * *', timezone: UTC}, {name: nightly, after: '02:00'}]");

        assertThat(RollupPeriods.upstreamWindows(two, "hourly", DATE)).isEqualTo(hourly("hourly"));
        assertThat(RollupPeriods.upstreamWindows(two, " nightly ", DATE)).containsExactly("nightly");
        assertThat(RollupPeriods.upstreamWindows(two, null, DATE)).hasSize(25).endsWith("hourly.2300", "nightly");
    }

    @Test
    void everyScheduleOfATwentyFourEntryUpstreamIsAPeriod() {
        String schedules = IntStream.range(0, 24)
                .mapToObj(h -> "{name: h%02d, after: '%02d:00'}".formatted(h, h))
                .collect(java.util.stream.Collectors.joining(", ", "schedules: [", "]"));
        PipelineConfig entries = pipeline("up", schedules);

        List<String> windows = RollupPeriods.upstreamWindows(entries, null, DATE);

        assertThat(windows).hasSize(24).startsWith("h00", "h01").endsWith("h23");
        assertThat(RollupPeriods.upstreamWindows(entries, "h05", DATE)).containsExactly("h05");
    }

    @Test
    void theSpringForwardDayOfABerlinHourlyUpstreamHasTwentyThreeWindows() {
        PipelineConfig berlin =
                pipeline("up", "schedules: [{name: hourly, cron: '0 * * * *', timezone: Europe/Berlin}]");

        List<String> windows = RollupPeriods.upstreamWindows(berlin, null, SPRING_FORWARD);

        assertThat(windows).hasSize(23).doesNotContain("hourly.0200").isEqualTo(hourly("hourly", 2));
        assertThat(RollupPeriods.upstreamWindows(berlin, null, SPRING_FORWARD.minusDays(1)))
                .hasSize(24);
    }

    @Test
    void theFallBackDayOfABerlinHourlyUpstreamCountsTheRepeatedHourOnce() {
        PipelineConfig berlin =
                pipeline("up", "schedules: [{name: hourly, cron: '0 * * * *', timezone: Europe/Berlin}]");

        List<String> windows = RollupPeriods.upstreamWindows(berlin, "hourly", FALL_BACK);

        assertThat(windows).isEqualTo(hourly("hourly"));
        assertThat(windows).filteredOn("hourly.0200"::equals).hasSize(1);
    }

    @Test
    void aScheduleTheUpstreamDoesNotHaveHasNoWindows() {
        assertThat(RollupPeriods.upstreamWindows(HOURLY_UTC, "daily", DATE)).isEmpty();
        assertThat(RollupPeriods.upstreamWindows(HOURLY_UTC, "hourly.0500", DATE))
                .as("a window id is not a schedule name")
                .isEmpty();
        assertThat(RollupPeriods.schedule(HOURLY_UTC, "hourly")).isPresent();
        assertThat(RollupPeriods.schedule(HOURLY_UTC, "nightly")).isEmpty();
    }

    @Test
    void aPlainUpstreamWithoutSchedulesHasItsDailyWindow() {
        assertThat(RollupPeriods.upstreamWindows(pipeline("up", ""), null, DATE))
                .containsExactly("daily");
    }

    @Test
    void aSensorRollupReadsThePartitionOfEveryHourOfItsDate() {
        List<String> partitions = RollupPeriods.sensorPartitions(" ${date}T${hour} ", "gold", "daily", DATE);

        assertThat(partitions)
                .hasSize(RollupPeriods.HOURS)
                .startsWith("2026-03-01T00", "2026-03-01T01")
                .endsWith("2026-03-01T23")
                .doesNotHaveDuplicates();
        assertThat(partitions.get(17)).isEqualTo("2026-03-01T17");
    }

    @Test
    void theOtherPlaceholdersAreThoseOfTheWindow() {
        assertThat(RollupPeriods.sensorPartitions("${pipelineId}-${scheduleId}-${hour}", "gold", "morning", DATE))
                .startsWith("gold-morning-00")
                .endsWith("gold-morning-23");
    }

    @Test
    void onlyATemplateUsingHourVariesByHour() {
        assertThat(RollupPeriods.variesByHour("${date}T${hour}")).isTrue();
        assertThat(RollupPeriods.variesByHour("hour-${hour}")).isTrue();
        assertThat(RollupPeriods.variesByHour("${date}")).isFalse();
        assertThat(RollupPeriods.variesByHour("hour")).isFalse();
        assertThat(RollupPeriods.variesByHour("${scheduleId}")).isFalse();
    }
}
