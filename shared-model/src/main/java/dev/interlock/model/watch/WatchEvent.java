package dev.interlock.model.watch;

import java.time.Instant;
import java.time.LocalDate;

/** Something the watchdog must act on for one (schedule, execution date), due at {@code at}. */
public record WatchEvent(String scheduleId, LocalDate date, Kind kind, Instant at) {

    /** What happened. */
    public enum Kind {
        /** The schedule's window ({@code after}) opened: start the day unless something else did. */
        WINDOW_OPENS,
        /** The completion deadline passed: SLA_MISSED unless the day completed. */
        DEADLINE_PASSED
    }
}
