package dev.interlock.model.schedule;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A non-negative span written as hours, minutes and seconds in that order: {@code 45m}, {@code +45m},
 * {@code 1h30m}, {@code 2h}, {@code 90s}. The leading '+' is accepted because the Go original's docs wrote it.
 */
public final class TimeSpan {
    private static final Pattern SPAN = Pattern.compile("\\+?(?:(\\d{1,6})h)?(?:(\\d{1,7})m)?(?:(\\d{1,9})s)?");

    private TimeSpan() {}

    /** Parses a span; anything else is an {@link IllegalArgumentException} with an example of the format. */
    public static Duration parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("expected a duration like 45m, 1h30m or 90s, got nothing");
        }
        Matcher m = SPAN.matcher(text.trim());
        if (!m.matches() || (m.group(1) == null && m.group(2) == null && m.group(3) == null)) {
            throw new IllegalArgumentException("expected a duration like 45m, 1h30m or 90s, got '" + text + "'");
        }
        return Duration.ofHours(part(m.group(1))).plusMinutes(part(m.group(2))).plusSeconds(part(m.group(3)));
    }

    private static long part(String digits) {
        return digits == null ? 0 : Long.parseLong(digits);
    }
}
