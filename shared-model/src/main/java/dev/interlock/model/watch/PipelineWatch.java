package dev.interlock.model.watch;

import dev.interlock.model.json.Frozen;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * The watchdog's state of one pipeline (table item {@code PIPELINE#<id>/WATCH}), written with the pipeline's config at
 * registration and by the watchdog after each look: its schedules as registered, how far its events were handled, and
 * when it is next due (the instant of its one due entry; null when no schedule has a window or a deadline).
 *
 * @param handledThrough every event at or before this instant was acted on
 * @param version        compare-and-swap version, so a tick and a registration never overwrite each other
 */
public record PipelineWatch(
        String pipelineId, Instant handledThrough, Map<String, ScheduleWatch> schedules, Instant dueAt, long version) {

    public PipelineWatch {
        Objects.requireNonNull(pipelineId, "pipelineId");
        Objects.requireNonNull(handledThrough, "handledThrough");
        schedules = Frozen.map(schedules);
    }
}
