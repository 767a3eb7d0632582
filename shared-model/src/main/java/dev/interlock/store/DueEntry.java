package dev.interlock.store;

import dev.interlock.model.keys.ItemKey;
import dev.interlock.model.keys.TableKeys;
import java.time.Instant;
import java.util.Objects;

/**
 * One entry of the watchdog's due-time index: at {@code dueAt} the watchdog must look at pipeline {@code pipelineId}
 * (its watch says why); or, when {@code runId} is set, check that this run reached a terminal status; or, when
 * {@code jobId} is set too, ask the job system whether the job run {@code runId} waits for by callback has ended (its
 * job-state event may have been lost); or, when {@code holder} is set, ask Step Functions whether the execution that
 * holds a lock of the pipeline still runs (its execution-end event may have been lost).
 *
 * @param triggerType the job's trigger type (wire name), for a callback check
 * @param jobId       the job system's id of the job, for a callback check
 * @param holder      the lock and its holder's execution, for a holder check
 */
public record DueEntry(
        Instant dueAt, String pipelineId, String runId, String triggerType, String jobId, HolderCheck holder) {

    public DueEntry {
        Objects.requireNonNull(dueAt, "dueAt");
        Objects.requireNonNull(pipelineId, "pipelineId");
        if (jobId != null && (runId == null || triggerType == null)) {
            throw new IllegalArgumentException("a callback check needs its runId and triggerType");
        }
        if (holder != null && (runId != null || jobId != null)) {
            throw new IllegalArgumentException("a holder check names no run and no job");
        }
    }

    /** A callback check ({@code jobId} set), a run check or a pipeline's entry. */
    public DueEntry(Instant dueAt, String pipelineId, String runId, String triggerType, String jobId) {
        this(dueAt, pipelineId, runId, triggerType, jobId, null);
    }

    /** The holder check of a lock of {@code pipelineId}. */
    public static DueEntry holderCheck(Instant dueAt, String pipelineId, HolderCheck holder) {
        return new DueEntry(dueAt, pipelineId, null, null, null, Objects.requireNonNull(holder, "holder"));
    }

    /** A pipeline's entry ({@code runId} null) or a run check. */
    public DueEntry(Instant dueAt, String pipelineId, String runId) {
        this(dueAt, pipelineId, runId, null, null);
    }

    /** Whether this entry checks one run rather than waking a pipeline's watch. */
    public boolean isRunCheck() {
        return runId != null && jobId == null;
    }

    /** Where this entry is stored. */
    public ItemKey key() {
        if (isHolderCheck()) {
            return TableKeys.holderCheckEntry(dueAt, pipelineId, holder.scheduleId(), holder.date(), holder.owner());
        }
        return isCallbackCheck()
                ? TableKeys.callbackCheckEntry(dueAt, pipelineId, runId)
                : TableKeys.dueEntry(dueAt, pipelineId, runId);
    }

    /** Whether this entry asks whether the execution holding a lock still runs. */
    public boolean isHolderCheck() {
        return holder != null;
    }

    /** Whether this entry asks whether the job of a run waiting by callback has ended. */
    public boolean isCallbackCheck() {
        return jobId != null;
    }
}
