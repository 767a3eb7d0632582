package dev.interlock.model.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.calendar.Calendar;
import dev.interlock.model.pipeline.ExclusionConfig;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExclusionsTest {

    private static final LocalDate SATURDAY = LocalDate.of(2026, 2, 28);
    private static final LocalDate MONDAY = LocalDate.of(2026, 2, 23);
    private static final LocalDate CHRISTMAS = LocalDate.of(2026, 12, 25);

    @Test
    void inlineWeekdaysMatchCaseInsensitively() {
        var config = new ExclusionConfig(null, List.of("SATURDAY", "sunday"), List.of());
        assertThat(Exclusions.reason(config, null, SATURDAY)).contains("excluded: saturday");
        assertThat(Exclusions.reason(new ExclusionConfig(null, List.of("Saturday"), null), null, SATURDAY))
                .isPresent();
        assertThat(Exclusions.reason(config, null, MONDAY)).isEmpty();
    }

    @Test
    void inlineDatesMatchTheExecutionDateExactly() {
        var config = new ExclusionConfig(null, List.of(), List.of("2026-12-25"));
        assertThat(Exclusions.reason(config, null, CHRISTMAS)).contains("excluded: 2026-12-25");
        assertThat(Exclusions.reason(config, null, CHRISTMAS.plusDays(1))).isEmpty();
    }

    @Test
    void theNamedCalendarIsUnitedWithTheInlineLists() {
        var calendar = new Calendar("uk-holidays", null, List.of(), List.of("2026-12-25"));
        var config = new ExclusionConfig("uk-holidays", List.of("saturday"), List.of());
        assertThat(Exclusions.reason(config, calendar, CHRISTMAS))
                .contains("excluded by calendar uk-holidays: 2026-12-25");
        assertThat(Exclusions.reason(config, calendar, SATURDAY)).contains("excluded: saturday");
        assertThat(Exclusions.reason(config, calendar, MONDAY)).isEmpty();
        assertThat(Exclusions.reason(null, new Calendar("weekends", null, List.of("Saturday"), List.of()), SATURDAY))
                .contains("excluded by calendar weekends: saturday");
    }

    @Test
    void nothingConfiguredExcludesNothing() {
        assertThat(Exclusions.reason(null, null, SATURDAY)).isEmpty();
        assertThat(Exclusions.reason(new ExclusionConfig(null, null, null), null, SATURDAY))
                .isEmpty();
    }

    @Test
    void unparsableEntriesNeverMatchAtRuntime() {
        var config = new ExclusionConfig(null, List.of("sat", "Samstag"), List.of("25/12/2026", "2026-02-30"));
        assertThat(Exclusions.reason(config, null, SATURDAY)).isEmpty();
        assertThat(Exclusions.weekday("sat")).isNull();
        assertThat(Exclusions.weekday(" Friday ")).isEqualTo(DayOfWeek.FRIDAY);
        assertThat(Exclusions.date("2026-02-30")).isNull();
    }
}
