package dev.interlock.model.schedule;

import java.time.LocalTime;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A wall-clock time written {@code H:MM} or {@code HH:MM} (00:00–23:59), as used by schedules and SLAs. */
public final class ClockTime {
    private static final Pattern HH_MM = Pattern.compile("(\\d{1,2}):(\\d{2})");

    private ClockTime() {}

    /** Whether {@code text} has the {@code HH:MM} shape (the range is checked by {@link #parse}). */
    public static boolean looksLikeClockTime(String text) {
        return text != null && HH_MM.matcher(text.trim()).matches();
    }

    /** Parses {@code HH:MM}; anything else is an {@link IllegalArgumentException} saying what was expected. */
    public static LocalTime parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("expected a time HH:MM, got nothing");
        }
        Matcher m = HH_MM.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("expected a time HH:MM, got '" + text + "'");
        }
        int hour = Integer.parseInt(m.group(1));
        int minute = Integer.parseInt(m.group(2));
        if (hour > 23 || minute > 59) {
            throw new IllegalArgumentException("'" + text + "' is not a time of day (00:00–23:59)");
        }
        return LocalTime.of(hour, minute);
    }
}
