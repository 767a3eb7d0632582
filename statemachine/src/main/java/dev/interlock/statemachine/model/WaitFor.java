package dev.interlock.statemachine.model;

import java.time.Instant;

/** How long a Wait state waits: exactly one of the four ASL fields. */
public sealed interface WaitFor {

    record Seconds(long seconds) implements WaitFor {}

    record SecondsPath(String path) implements WaitFor {}

    record Timestamp(Instant timestamp) implements WaitFor {}

    record TimestampPath(String path) implements WaitFor {}
}
