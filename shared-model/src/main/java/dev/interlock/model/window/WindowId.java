package dev.interlock.model.window;

import java.time.LocalTime;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The schedule id of one window of a cron schedule: the schedule's name and the firing's local time,
 * {@code <name>.HHMM} ({@code hourly.1400}). The one home of that format: schedules write it, template values
 * ({@code ${hour}}) and lookups read it. A leaf of the model: it names no other model package.
 */
public record WindowId(String scheduleName, LocalTime firing) {

    private static final Pattern FORMAT = Pattern.compile("^(.+)\\.([01][0-9]|2[0-3])([0-5][0-9])$");

    /** {@code hourly.1400}. */
    @Override
    public String toString() {
        return scheduleName + "." + String.format("%02d%02d", firing.getHour(), firing.getMinute());
    }

    /** The window a schedule id names, if it has that form. */
    public static Optional<WindowId> parse(String scheduleId) {
        if (scheduleId == null) {
            return Optional.empty();
        }
        Matcher m = FORMAT.matcher(scheduleId);
        if (!m.matches()) {
            return Optional.empty();
        }
        return Optional.of(
                new WindowId(m.group(1), LocalTime.of(Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)))));
    }
}
