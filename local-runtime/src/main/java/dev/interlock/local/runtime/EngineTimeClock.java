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
    private final ZoneId zone;

    EngineTimeClock(EngineClock engine) {
        this(engine, ZoneOffset.UTC);
    }

    private EngineTimeClock(EngineClock engine, ZoneId zone) {
        this.engine = engine;
        this.zone = zone;
    }

    @Override
    public ZoneId getZone() {
        return zone;
    }

    /** The same engine time seen from {@code zone}: {@code LocalDate.now(clock.withZone(tokyo))} is Tokyo's date. */
    @Override
    public Clock withZone(ZoneId zone) {
        return zone.equals(this.zone) ? this : new EngineTimeClock(engine, zone);
    }

    @Override
    public Instant instant() {
        return engine.now();
    }
}
