package dev.interlock.runtime.outbound;

/** Which failures a call may be repeated after, depending on whether repeating it could do the work twice. */
public enum RetryMode {
    /**
     * Reads and other idempotent calls: retried on 429, 502, 503, 504, on connection failures and on timeouts,
     * while the time budget lasts.
     */
    IDEMPOTENT,
    /**
     * Calls that start work (trigger a job): retried only when the server cannot have acted — 429, 503 and a
     * connection that was never made — so a lost answer never starts the job twice.
     */
    START_ONCE,
    /** One attempt. */
    NONE
}
