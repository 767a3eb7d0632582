package dev.interlock.orchestrator;

import dev.interlock.model.keys.LockKey;

import java.time.Duration;

/**
 * {@code acquireLock}: one execution at a time per (pipeline, schedule). The owner is the execution name; the same
 * owner re-acquires (a retried call, the retry loop); the TTL outlives the execution timeout.
 */
public final class AcquireLock implements Action {

    /** Always-present payload; {@code ttlSeconds} is 0 unless acquired. */
    public record Payload(boolean acquired, long ttlSeconds) {
    }

    /** Request payload. */
    record Request(String owner, Integer executionTimeoutSeconds) {
    }

    private final Collaborators collaborators;

    public AcquireLock(Collaborators collaborators) {
        this.collaborators = collaborators;
    }

    @Override
    public Outcome run(ActionRequest request) {
        Request body = request.payload(Request.class);
        String owner = LockOwner.of(body.owner(), request);
        if (owner == null) {
            return Outcome.error("payload.owner (or executionName) is required to own the lock", errorPayload());
        }
        LockKey key = new LockKey(request.pipelineId(), request.scheduleId());
        int requested = body.executionTimeoutSeconds() == null ? 0 : body.executionTimeoutSeconds();
        Duration ttl = collaborators.settings().lockTtl(requested);
        if (collaborators.provider().locks().acquire(key, owner, ttl)) {
            return Outcome.proceed(new Payload(true, ttl.getSeconds()));
        }
        String holder = collaborators.provider().locks().holder(key).orElse("another execution");
        return Outcome.skip("lock " + key.value() + " held by " + holder, new Payload(false, 0));
    }

    @Override
    public Payload errorPayload() {
        return new Payload(false, 0);
    }
}
