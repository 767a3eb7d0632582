package dev.interlock.store;

import dev.interlock.model.calendar.Calendar;

import java.util.Optional;

/** Named exclusion calendars, registered via the API and read by the exclusion check. */
public interface CalendarStore {

    /** Registers or replaces a calendar; true when it did not exist before. */
    boolean put(Calendar calendar);

    /** The calendar named {@code name}. */
    Optional<Calendar> get(String name);

    /** Calendars in name order. */
    Page<Calendar> list(PageRequest page);
}
