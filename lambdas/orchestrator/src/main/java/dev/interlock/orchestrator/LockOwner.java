package dev.interlock.orchestrator;

/** The lock owner token of a request: the payload's {@code owner}, else the execution name. */
final class LockOwner {

    private LockOwner() {
    }

    static String of(String payloadOwner, ActionRequest request) {
        if (payloadOwner != null && !payloadOwner.isBlank()) {
            return payloadOwner.trim();
        }
        return request.executionName();
    }
}
