package dev.interlock.store;

import dev.interlock.model.event.Event;
import java.util.List;

/** The per-pipeline audit trail: append-only, read forward from a cursor. */
public interface EventStore {

    /** Appends an event at its {@code timestamp}; events of the same millisecond keep a stable order once written. */
    void append(Event event);

    /**
     * Events of a pipeline in time order, starting after {@code page.cursor()} (from the oldest when null).
     * {@code nextCursor} is present when more events follow.
     */
    Page<Event> read(String pipelineId, PageRequest page);

    /** The latest {@code count} events of a pipeline, oldest of them first. */
    List<Event> latest(String pipelineId, int count);
}
