package dev.interlock.model.schedule;

import dev.interlock.model.calendar.Calendar;
import dev.interlock.model.pipeline.ExclusionConfig;
import dev.interlock.model.pipeline.PipelineConfig;
import java.time.LocalDate;
import java.util.Optional;
import java.util.function.Function;

/** Whether a pipeline skips an execution date: its inline days/dates, then its named calendar from the table. */
public final class ExclusionRule {

    private ExclusionRule() {}

    /**
     * Why {@code date} is excluded, or empty; {@code calendars} looks a registered calendar up by name. A named calendar that is not registered is an
     * {@link IllegalArgumentException}: running on a day the operator meant to exclude is worse than not running.
     */
    public static Optional<String> reason(
            Function<String, Optional<Calendar>> calendars, PipelineConfig pipeline, LocalDate date) {
        ExclusionConfig exclusions = pipeline.exclusions();
        if (exclusions == null) {
            return Optional.empty();
        }
        Calendar calendar = null;
        if (exclusions.calendar() != null && !exclusions.calendar().isBlank()) {
            String name = exclusions.calendar().trim();
            calendar = calendars
                    .apply(name)
                    .orElseThrow(
                            () -> new IllegalArgumentException("exclusions.calendar '" + name + "' is not registered"));
        }
        return Exclusions.reason(exclusions, calendar, date);
    }
}
