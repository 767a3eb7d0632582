package dev.interlock.store;

import dev.interlock.model.run.RunState;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Run states, the truth of each run; changed only by compare-and-swap on {@code version}. */
public interface RunStore {

    /** Creates a run; false (and nothing written) when a run with this id already exists. */
    boolean create(RunState run);

    /** The run with id {@code runId}. */
    Optional<RunState> get(String runId);

    /**
     * Replaces the run with {@code next} if and only if its stored version is still {@code expectedVersion}.
     * {@code next.version()} must be {@code expectedVersion + 1}. Returns false when another writer got there
     * first (or the run does not exist): the caller re-reads and decides, nothing is retried here.
     */
    boolean compareAndSwap(long expectedVersion, RunState next);

    /** A pipeline's runs, newest first (by creation time). */
    Page<RunState> listByPipeline(String pipelineId, PageRequest page);

    /**
     * A pipeline's runs created in {@code [createdFrom, createdBefore)} that are not terminal, oldest first: the
     * watchdog passes its look-back window and {@code now - execution timeout} to find stuck runs.
     */
    List<RunState> listNonTerminal(String pipelineId, Instant createdFrom, Instant createdBefore);

    /**
     * A pipeline's runs created in {@code [createdFrom, createdBefore)}, ended or not, oldest first: what
     * {@link dev.interlock.model.workflow.DayJob} decides "is there already a job for this day" from (one query, as
     * {@link #listNonTerminal}).
     */
    List<RunState> listCreated(String pipelineId, Instant createdFrom, Instant createdBefore);
}
