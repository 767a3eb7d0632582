package dev.interlock.store;

import dev.interlock.model.calendar.Calendar;
import java.util.Optional;

/** Named exclusion calendars, registered via the API and read by the exclusion check. */
public interface CalendarStore {

    /**
     * Registers or replaces a calendar if {@code check} finds no problem with any pipeline that uses it (the users come
     * from the index pipeline registration keeps; a user registered meanwhile makes the store read and check again).
     *
     * @return {@link Registration.Written} (created when new), or {@link Registration.Blocked}, after which nothing
     *         was written
     */
    Registration register(Calendar calendar, DependantCheck check);

    /** Registers without checking its users (seeding, tests); true when it did not exist before. */
    default boolean put(Calendar calendar) {
        return register(calendar, DependantCheck.NONE) instanceof Registration.Written written && written.created();
    }

    /**
     * Deletes a calendar if {@code check} finds no problem with any pipeline that uses it (a user whose check fails
     * blocks the deletion, as for {@link #register}).
     *
     * @return {@link Registration.Deleted}, {@link Registration.NotFound}, or {@link Registration.Blocked}
     */
    Registration delete(String name, DependantCheck check);

    /** The calendar named {@code name}. */
    Optional<Calendar> get(String name);

    /** Calendars in name order. */
    Page<Calendar> list(PageRequest page);
}
