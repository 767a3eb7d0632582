package dev.interlock.store;

import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A fenced write was refused because its writer no longer holds the lock ({@link LockFence}): nothing of the write
 * was stored. Not a store fault: the writer must stop working on the day (it is not its day any more).
 */
public final class LockLostException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient LockFence fence;
    private final String write;

    LockLostException(LockFence fence, String write) {
        super("execution " + fence.owner() + " no longer holds lock "
                + fence.key().value() + " (released by an operator, expired or taken over): " + write
                + " refused, nothing written");
        this.fence = fence;
        this.write = write;
    }

    /** The {@code LOCK_LOST} event that tells why the fenced-out execution stopped ({@code runId} may be null). */
    public Event event(String runId, Instant now) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("executionName", fence.owner());
        details.put("lock", fence.key().value());
        details.put("refusedWrite", write);
        return new Event(
                EventKind.LOCK_LOST,
                fence.key().pipelineId(),
                fence.key().scheduleId(),
                fence.key().date(),
                runId,
                null,
                "LOCK_LOST",
                getMessage() + "; the execution stops without triggering, recording or releasing the lock",
                details,
                now);
    }

    /** The fence that failed. */
    public LockFence fence() {
        return fence;
    }
}
