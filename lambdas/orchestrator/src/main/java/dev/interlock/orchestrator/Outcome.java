package dev.interlock.orchestrator;

import java.util.Objects;

/**
 * What one action decided: the result, a reason ({@code ""} on proceed) and its payload, a record whose fields are
 * all non-null so every field a Choice reads is written.
 */
public record Outcome(Result result, String reason, Object payload) {
    public Outcome {
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(payload, "payload");
        reason = reason == null ? "" : reason;
    }

    /** The action's condition holds; the machine goes on. */
    public static Outcome proceed(Object payload) {
        return new Outcome(Result.PROCEED, "", payload);
    }

    /** A normal reason not to go on (excluded, lock held, not ready…). */
    public static Outcome skip(String reason, Object payload) {
        return new Outcome(Result.SKIP, reason, payload);
    }

    /** A logical failure the orchestrator could not get past (unknown pipeline, invalid config, bad request). */
    public static Outcome error(String reason, Object payload) {
        return new Outcome(Result.ERROR, reason, payload);
    }
}
