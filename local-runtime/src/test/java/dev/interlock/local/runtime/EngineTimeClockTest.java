package dev.interlock.local.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.statemachine.engine.ScaledRealClock;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class EngineTimeClockTest {

    @Test
    void aZonedViewOfTheEngineClockTellsThatZonesDate() {
        // 15:30 UTC on the 24th is already the 25th in Tokyo.
        Clock utc = new EngineTimeClock(new ScaledRealClock(1.0, Instant.parse("2026-11-24T15:30:00Z")));
        Clock tokyo = utc.withZone(ZoneId.of("Asia/Tokyo"));

        assertThat(LocalDate.now(utc)).isEqualTo(LocalDate.parse("2026-11-24"));
        assertThat(LocalDate.now(tokyo)).isEqualTo(LocalDate.parse("2026-11-25"));
        assertThat(tokyo.getZone()).isEqualTo(ZoneId.of("Asia/Tokyo"));
        assertThat(tokyo.withZone(ZoneOffset.UTC).getZone()).isEqualTo(ZoneOffset.UTC);
    }
}
