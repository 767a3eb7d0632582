package dev.interlock.store;

import dev.interlock.model.rerun.Rerun;

import java.time.LocalDate;
import java.util.Optional;

/** Rerun requests, listed newest first and counted per (pipeline, date, schedule) for the daily rerun budget. */
public interface RerunStore {

    /**
     * Stores (creates or replaces, e.g. on a status change) a rerun. Creating one also counts it against the daily
     * budget counter that {@link Provider#acceptRerun} checks; replacing one does not (a moved rerun stays counted
     * where it was created).
     */
    void put(Rerun rerun);

    /** The rerun with id {@code rerunId}. */
    Optional<Rerun> get(String rerunId);

    /** All reruns, newest request first. */
    Page<Rerun> list(PageRequest page);

    /** A pipeline's reruns, newest date first. */
    Page<Rerun> listByPipeline(String pipelineId, PageRequest page);

    /**
     * How many live reruns exist for (pipeline, date, schedule), whatever their status. This is what the budget
     * counter of {@link Provider#acceptRerun} counts as well, except that the counter is atomic (it gates concurrent
     * requests), keeps a rerun on the (date, schedule) it was created for, and lives as long as the newest rerun it
     * counted (an expired counter DynamoDB has not deleted yet still counts, as conditions see expired items). Callers
     * that check the budget without writing atomically (the orchestrator, under its evaluation lock) use this.
     */
    int count(String pipelineId, LocalDate date, String scheduleId);
}
