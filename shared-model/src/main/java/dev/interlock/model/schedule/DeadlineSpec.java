package dev.interlock.model.schedule;

import java.time.Duration;
import java.time.LocalTime;

/** A deadline as configured: a wall-clock time, or a span after the schedule's window opens. */
public sealed interface DeadlineSpec {

    /** {@code HH:MM} in the schedule's zone; before the window opens means the next day. */
    record WallClock(LocalTime time) implements DeadlineSpec {}

    /** {@code 45m}, {@code +1h30m}: measured in elapsed time from the window opening. */
    record AfterOpening(Duration offset) implements DeadlineSpec {}

    /** Parses {@code HH:MM} or a span; the error says both forms are accepted. */
    static DeadlineSpec parse(String text) {
        if (ClockTime.looksLikeClockTime(text)) {
            return new WallClock(ClockTime.parse(text));
        }
        try {
            return new AfterOpening(TimeSpan.parse(text));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("expected HH:MM or a duration like 45m / 1h30m, got '" + text + "'", e);
        }
    }
}
