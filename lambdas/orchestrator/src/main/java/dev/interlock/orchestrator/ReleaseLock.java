package dev.interlock.orchestrator;

/** {@code releaseLock}: deletes the lock only when this owner holds it; a lock held by another is left alone. */
public final class ReleaseLock implements Action {

    /** Always-present payload. */
    public record Payload(boolean released) {}

    /** Request payload. */
    record Request(String owner) {}

    private final Collaborators collaborators;

    public ReleaseLock(Collaborators collaborators) {
        this.collaborators = collaborators;
    }

    @Override
    public Outcome run(ActionRequest request) {
        String owner = LockOwner.of(request.payload(Request.class).owner(), request);
        if (owner == null) {
            return Outcome.error("payload.owner (or executionName) is required to release the lock", errorPayload());
        }
        boolean released = collaborators.provider().locks().release(LockOwner.key(request), owner);
        return Outcome.proceed(new Payload(released));
    }

    @Override
    public Payload errorPayload() {
        return new Payload(false);
    }
}
