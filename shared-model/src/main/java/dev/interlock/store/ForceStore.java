package dev.interlock.store;

import dev.interlock.model.force.ForceReady;
import java.time.LocalDate;
import java.util.Optional;

/** Days an operator forced ready ({@link ForceReady}): at most one per (pipeline, date, schedule). */
public interface ForceStore {

    /** Records a force, replacing an earlier one of the same day. */
    void put(ForceReady force);

    /** The force of one day while it has not expired, else empty. */
    Optional<ForceReady> get(String pipelineId, LocalDate date, String scheduleId);
}
