package dev.interlock.store;

import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.watch.PipelineWatch;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;

/**
 * The watchdog's due-time index (docs/table-design.md: watch, due entries, checkpoint), so a tick reads what is due
 * instead of every schedule: one watch per pipeline, kept by {@link PipelineStore#put}/{@link PipelineStore#delete} in
 * the same transaction as the config, and due entries in partitions per UTC day and shard, sorted by due instant. A
 * pipeline has one due entry, at its watch's {@code dueAt}; a run has one at the instant it must be terminal by.
 * Handled entries are deleted, so what a Query up to "now" returns is exactly what is still to do.
 */
public interface WatchdogIndex {

    /** The watch of one pipeline. */
    Optional<PipelineWatch> watch(String pipelineId);

    /** The watches of these pipelines, by pipeline id (one without is left out): one BatchGetItem per 100 on DynamoDB. */
    Map<String, PipelineWatch> watches(Collection<String> pipelineIds);

    /** One page of the entries of partition ({@code day}, {@code shard}) due at or before {@code until}, oldest first. */
    Page<DueEntry> due(LocalDate day, int shard, Instant until, PageRequest page);

    /**
     * Replaces {@code current} by {@code next} if the stored watch still has {@code current}'s version, and in the same
     * write moves the pipeline's due entry from {@code current.dueAt()} to {@code next.dueAt()} (none when null).
     * False, with nothing written, when a registration or another tick changed the watch first.
     */
    boolean advance(PipelineWatch current, PipelineWatch next);

    /**
     * Gives a pipeline registered before the due-time index existed its watch and due entry, as a registration at the
     * store's current time would ({@code WatchPlan.registered}); nothing when it has a watch already. Returns the watch
     * it has now.
     */
    PipelineWatch adopt(PipelineConfig config);

    /** Adds the entry that checks, at {@code at}, that run {@code runId} of {@code pipelineId} is terminal. */
    void expectRunSettled(String pipelineId, String runId, Instant at);

    /**
     * Adds the entry that asks, at {@code at}, whether job {@code jobId} ({@code triggerType}, its wire name), which
     * run {@code runId} of {@code pipelineId} waits for by callback, has ended; written again with a new instant while
     * the job runs.
     */
    void expectJobCallback(String pipelineId, String runId, String triggerType, String jobId, Instant at);

    /**
     * Adds the holder check of a lock of {@code pipelineId}, due at {@code at} (the first one is written with the
     * lock, {@link Locker#acquire(dev.interlock.model.keys.LockKey, String, java.time.Duration, String, Instant)}; the
     * watchdog writes the next while the holder runs).
     */
    void expectHolderCheck(String pipelineId, HolderCheck holder, Instant at);

    /** Deletes an entry (a run check done, or an entry its pipeline's watch no longer points to). */
    void remove(DueEntry entry);

    /** The earliest UTC day whose partitions may still hold entries, as the last complete tick recorded it. */
    Optional<LocalDate> lowWater();

    /** Records {@code day} as that earliest day; an earlier day than the recorded one changes nothing. */
    void raiseLowWater(LocalDate day);
}
