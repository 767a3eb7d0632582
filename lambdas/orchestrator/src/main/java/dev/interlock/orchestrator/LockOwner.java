package dev.interlock.orchestrator;

import dev.interlock.model.keys.LockKey;
import dev.interlock.store.LockFence;

/** The lock an execution's request is about, and the owner token it holds it with. */
final class LockOwner {

    private LockOwner() {}

    /** The payload's {@code owner}, else the execution name. */
    static String of(String payloadOwner, ActionRequest request) {
        if (payloadOwner != null && !payloadOwner.isBlank()) {
            return payloadOwner.trim();
        }
        return request.executionName();
    }

    /**
     * The fence of the execution's writes that must come from the lock's holder (run creation, run log): its own lock,
     * owned by its name; null for a request that comes from no execution.
     */
    static LockFence fence(ActionRequest request) {
        String owner = request.executionName();
        return owner == null || owner.isBlank() ? null : new LockFence(key(request), owner.trim());
    }

    /** The evaluation lock of the request's (pipeline, schedule, date). */
    static LockKey key(ActionRequest request) {
        return new LockKey(request.pipelineId(), request.scheduleId(), request.date());
    }
}
