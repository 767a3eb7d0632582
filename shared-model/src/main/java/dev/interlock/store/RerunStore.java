package dev.interlock.store;

import dev.interlock.model.rerun.Rerun;

import java.time.LocalDate;
import java.util.Optional;

/** Rerun requests, listed newest first and counted per (pipeline, date, schedule) for the daily rerun budget. */
public interface RerunStore {

    /** Stores (creates or replaces, e.g. on a status change) a rerun. */
    void put(Rerun rerun);

    /** The rerun with id {@code rerunId}. */
    Optional<Rerun> get(String rerunId);

    /** All reruns, newest request first. */
    Page<Rerun> list(PageRequest page);

    /** A pipeline's reruns, newest date first. */
    Page<Rerun> listByPipeline(String pipelineId, PageRequest page);

    /** How many reruns exist for (pipeline, date, schedule): what {@code maxReruns} per day is checked against. */
    int count(String pipelineId, LocalDate date, String scheduleId);
}
