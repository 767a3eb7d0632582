package dev.interlock.model.force;

import java.time.Instant;

/**
 * Who forced a day ready, why and when, as the run it started and the day's run log carry it (docs/operations.md,
 * "Forcing a day ready").
 *
 * @param by     the caller that forced it (an IAM principal on AWS, {@code local} locally)
 * @param reason why
 * @param at     when it was forced
 */
public record Forced(String by, String reason, Instant at) {

    /** One line a person reads: {@code forced ready by …: reason}. */
    public String describe() {
        return "forced ready by " + by + ": " + reason;
    }
}
