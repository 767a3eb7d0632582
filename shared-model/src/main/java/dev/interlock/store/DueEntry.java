package dev.interlock.store;

import dev.interlock.model.keys.ItemKey;
import dev.interlock.model.keys.TableKeys;
import java.time.Instant;
import java.util.Objects;

/**
 * One entry of the watchdog's due-time index: at {@code dueAt} the watchdog must look at pipeline {@code pipelineId}
 * (its watch says why); or, when {@code runId} is set, check that this run reached a terminal status; or, when
 * {@code jobId} is set too, ask the job system whether the job run {@code runId} waits for by callback has ended (its
 * job-state event may have been lost).
 *
 * @param triggerType the job's trigger type (wire name), for a callback check
 * @param jobId       the job system's id of the job, for a callback check
 */
public record DueEntry(Instant dueAt, String pipelineId, String runId, String triggerType, String jobId) {

    public DueEntry {
        Objects.requireNonNull(dueAt, "dueAt");
        Objects.requireNonNull(pipelineId, "pipelineId");
        if (jobId != null && (runId == null || triggerType == null)) {
            throw new IllegalArgumentException("a callback check needs its runId and triggerType");
        }
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
        return isCallbackCheck()
                ? TableKeys.callbackCheckEntry(dueAt, pipelineId, runId)
                : TableKeys.dueEntry(dueAt, pipelineId, runId);
    }

    /** Whether this entry asks whether the job of a run waiting by callback has ended. */
    public boolean isCallbackCheck() {
        return jobId != null;
    }
}
