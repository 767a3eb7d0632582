package dev.interlock.orchestrator;

import dev.interlock.model.keys.LockKey;

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

    /** The evaluation lock of the request's (pipeline, schedule, date). */
    static LockKey key(ActionRequest request) {
        return new LockKey(request.pipelineId(), request.scheduleId(), request.date());
    }
}
