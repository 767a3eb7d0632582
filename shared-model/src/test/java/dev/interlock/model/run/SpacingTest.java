package dev.interlock.model.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class SpacingTest {

    private static final Instant PREVIOUS = Instant.parse("2026-03-02T06:00:00Z");

    @Test
    void aNewRunWaitsUntilTheIntervalAfterThePreviousRunsStart() {
        assertThat(Spacing.holdsUntil(PREVIOUS, Duration.ofHours(2), Instant.parse("2026-03-02T07:30:00Z")))
                .contains(Instant.parse("2026-03-02T08:00:00Z"));
        assertThat(Spacing.holdsUntil(PREVIOUS, Duration.ofHours(2), Instant.parse("2026-03-02T08:00:00Z")))
                .as("exactly the interval later it may start")
                .isEmpty();
    }

    @Test
    void withoutAPreviousRunOrASpacingNothingWaits() {
        Instant now = Instant.parse("2026-03-02T06:01:00Z");
        assertThat(Spacing.holdsUntil(null, Duration.ofHours(2), now)).isEmpty();
        assertThat(Spacing.holdsUntil(PREVIOUS, null, now)).isEmpty();
        assertThat(Spacing.holdsUntil(PREVIOUS, Duration.ZERO, now)).isEmpty();
    }
}
