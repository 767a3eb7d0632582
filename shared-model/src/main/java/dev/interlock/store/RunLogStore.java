package dev.interlock.store;

import dev.interlock.model.run.RunLog;
import java.time.LocalDate;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;

/** Run logs: the durable "did it run, how often did it fail" record of each (pipeline, date, schedule). */
public interface RunLogStore {

    /** The unexpired run log of {@code key}. */
    Optional<RunLog> get(RunLogKey key);

    /**
     * The unexpired run logs of {@code keys}, by key (an absent one is left out): one BatchGetItem per 100 keys on
     * DynamoDB, where {@link #get} per key costs a request each (an hourly pipeline has 24 a day).
     */
    Map<RunLogKey, RunLog> getAll(Collection<RunLogKey> keys);

    /**
     * Applies {@code change} to the current entry with a conditional write (never a blind overwrite), re-reading and
     * re-applying on a concurrent update, and returns the stored entry. The change must preserve
     * {@code attemptNumber} and {@code retryHistory} ({@link RunLogChange#applyPreserving}); a change that does not
     * is rejected with {@link IllegalStateException} and nothing is written.
     */
    RunLog update(RunLogKey key, RunLogChange change);

    /** A pipeline's run logs, newest date first. */
    Page<RunLog> listByPipeline(String pipelineId, PageRequest page);

    /** Every pipeline's run logs of one date, by pipeline and schedule (what the watchdog reads). */
    Page<RunLog> listByDate(LocalDate date, PageRequest page);
}
