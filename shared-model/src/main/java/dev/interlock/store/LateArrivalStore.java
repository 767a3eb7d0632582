package dev.interlock.store;

import dev.interlock.model.rerun.LateArrival;
import java.time.LocalDate;
import java.util.List;

/** Drift detected after completion, recorded per (pipeline, date, schedule). */
public interface LateArrivalStore {

    /** Records a late arrival at its {@code detectedAt}. */
    void put(LateArrival lateArrival);

    /** The unexpired late arrivals of (pipeline, date, schedule), oldest first. */
    List<LateArrival> list(String pipelineId, LocalDate date, String scheduleId);
}
