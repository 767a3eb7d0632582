package dev.interlock.model.schedule;

import dev.interlock.model.calendar.Calendar;
import dev.interlock.model.pipeline.ExclusionConfig;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Judges whether an execution date is excluded by a pipeline's inline days/dates or its named calendar. Judged
 * on the execution date, never the wall clock, so a late or replayed run sees the same answer.
 */
public final class Exclusions {
    private Exclusions() {}

    /**
     * Why {@code date} is excluded, or empty when it is not. {@code calendar} is the named calendar already
     * looked up (null when the pipeline names none or it is missing — the caller decides how to report that).
     */
    public static Optional<String> reason(ExclusionConfig inline, Calendar calendar, LocalDate date) {
        if (inline != null) {
            Optional<String> own = match(inline.days(), inline.dates(), date, "excluded");
            if (own.isPresent()) {
                return own;
            }
        }
        if (calendar != null) {
            return match(calendar.days(), calendar.dates(), date, "excluded by calendar " + calendar.name());
        }
        return Optional.empty();
    }

    /** Parses a full English weekday name, case-insensitively; null when it is not one. */
    public static DayOfWeek weekday(String name) {
        if (name == null) {
            return null;
        }
        try {
            return DayOfWeek.valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** Parses a {@code YYYY-MM-DD} date; null when it is not one. */
    public static LocalDate date(String text) {
        if (text == null) {
            return null;
        }
        try {
            return LocalDate.parse(text.trim());
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static Optional<String> match(List<String> days, List<String> dates, LocalDate date, String prefix) {
        for (String day : days) {
            if (weekday(day) == date.getDayOfWeek()) {
                return Optional.of(prefix + ": " + date.getDayOfWeek().name().toLowerCase(Locale.ROOT));
            }
        }
        for (String text : dates) {
            if (date.equals(date(text))) {
                return Optional.of(prefix + ": " + date);
            }
        }
        return Optional.empty();
    }
}
