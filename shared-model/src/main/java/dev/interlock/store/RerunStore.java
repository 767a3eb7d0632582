package dev.interlock.store;

import dev.interlock.model.rerun.Rerun;
import java.time.LocalDate;
import java.util.Optional;

/**
 * Rerun requests, listed newest request first and counted per (pipeline, date, schedule) for the daily rerun budget.
 * Reruns are written only by {@link Provider#acceptRerun} (a new, counted rerun) and {@link Provider#moveRerun} (a
 * conditional status change, or a refused rerun recorded as such).
 */
public interface RerunStore {

    /** The rerun with id {@code rerunId}. */
    Optional<Rerun> get(String rerunId);

    /** All reruns, newest request first. */
    Page<Rerun> list(PageRequest page);

    /** A pipeline's reruns, newest request first. */
    Page<Rerun> listByPipeline(String pipelineId, PageRequest page);

    /** The live rerun of (pipeline, date, schedule) that execution {@code executionName} serves, if it serves one. */
    Optional<Rerun> forExecution(String pipelineId, LocalDate date, String scheduleId, String executionName);

    /**
     * How many live reruns exist for (pipeline, date, schedule), whatever their status, a backfill's aside (they do not
     * spend the budget). This is what the budget
     * counter of {@link Provider#acceptRerun} counts as well, except that the counter is atomic (it gates concurrent
     * requests), counts only accepted reruns, and lives as long as the newest rerun it counted (an expired counter
     * DynamoDB has not deleted yet still counts, as conditions see expired items). A cheap pre-check for callers.
     */
    int count(String pipelineId, LocalDate date, String scheduleId);
}
