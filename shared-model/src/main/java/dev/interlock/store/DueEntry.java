package dev.interlock.store;

import java.time.Instant;
import java.util.Objects;

/**
 * One entry of the watchdog's due-time index: at {@code dueAt} the watchdog must look at pipeline {@code pipelineId}
 * (its watch says why), or, when {@code runId} is set, check that this run reached a terminal status.
 */
public record DueEntry(Instant dueAt, String pipelineId, String runId) {

    public DueEntry {
        Objects.requireNonNull(dueAt, "dueAt");
        Objects.requireNonNull(pipelineId, "pipelineId");
    }

    /** Whether this entry checks one run rather than waking a pipeline's watch. */
    public boolean isRunCheck() {
        return runId != null;
    }
}
