package dev.interlock.local.runtime;

import dev.interlock.statemachine.engine.EngineClock;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The engine's (possibly scaled) time as a {@link Clock}, so the functions judge deadlines, backoffs and TTLs in the
 * same time the state machine waits in: with {@code --time-scale 60} an hour of pipeline life passes in a minute,
 * consistently everywhere.
 */
final class EngineTimeClock extends Clock {

    private final EngineClock engine;

    EngineTimeClock(EngineClock engine) {
        this.engine = engine;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public Instant instant() {
        return engine.now();
    }
}
