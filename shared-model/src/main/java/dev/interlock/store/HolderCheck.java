package dev.interlock.store;

import dev.interlock.model.keys.LockKey;
import java.time.LocalDate;
import java.util.Objects;

/**
 * What the watchdog's holder check of a lock needs: the lock (with the due entry's pipeline), the execution that took
 * it (its name is the lock's owner) and that execution's ARN, to ask Step Functions whether it still runs. A lock whose
 * holder ended without its execution-end event reaching Interlock is released by this check within one watchdog tick.
 */
public record HolderCheck(String scheduleId, LocalDate date, String owner, String executionArn) {

    public HolderCheck {
        Objects.requireNonNull(scheduleId, "scheduleId");
        Objects.requireNonNull(date, "date");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(executionArn, "executionArn");
    }

    /** The lock of pipeline {@code pipelineId} this check watches. */
    public LockKey lock(String pipelineId) {
        return new LockKey(pipelineId, scheduleId, date);
    }
}
