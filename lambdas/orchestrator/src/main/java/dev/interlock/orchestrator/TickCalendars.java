package dev.interlock.orchestrator;

import dev.interlock.model.calendar.Calendar;
import dev.interlock.store.CalendarStore;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/** The calendars one tick reads, each at most once (many pipelines share one holiday calendar). */
final class TickCalendars implements Function<String, Optional<Calendar>> {
    private final CalendarStore store;
    private final Map<String, Optional<Calendar>> read = new ConcurrentHashMap<>();

    TickCalendars(CalendarStore store) {
        this.store = store;
    }

    @Override
    public Optional<Calendar> apply(String name) {
        return read.computeIfAbsent(name, store::get);
    }
}
