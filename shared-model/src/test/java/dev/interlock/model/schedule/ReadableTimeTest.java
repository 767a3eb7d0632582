package dev.interlock.model.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class ReadableTimeTest {

    private static final ZoneId LA = ZoneId.of("America/Los_Angeles");
    private static final ZoneId LONDON = ZoneId.of("Europe/London");

    @Test
    void aLosAngelesDeadlineReadsAsItsOwnWallClockAndDateWithTheOffset() {
        Instant deadline = Instant.parse("2026-11-20T01:45:00Z");

        assertThat(ReadableTime.of(deadline, LA)).isEqualTo("2026-11-19 17:45 -08:00");
        assertThat(ReadableTime.timeOf(deadline, LA)).isEqualTo("17:45 -08:00");
        assertThat(ReadableTime.withZone(deadline, LA)).isEqualTo("2026-11-19 17:45 -08:00 America/Los_Angeles");
    }

    @Test
    void theOffsetFollowsSummerTimeOnEitherSideOfTheLondonChangeInOctober() {
        // 2026-10-25 01:00 UTC: BST (+01:00) ends, the clocks go back from 02:00 to 01:00.
        assertThat(ReadableTime.of(Instant.parse("2026-10-25T00:30:00Z"), LONDON))
                .isEqualTo("2026-10-25 01:30 +01:00");
        assertThat(ReadableTime.of(Instant.parse("2026-10-25T01:30:00Z"), LONDON))
                .isEqualTo("2026-10-25 01:30 +00:00");
        assertThat(ReadableTime.of(Instant.parse("2026-10-24T23:30:00Z"), LONDON))
                .as("the local date, not the UTC one")
                .isEqualTo("2026-10-25 00:30 +01:00");
    }

    @Test
    void aUtcPipelineShowsPlusZeroAndIsNamedUtc() {
        Instant at = Instant.parse("2026-11-20T01:45:00Z");

        assertThat(ReadableTime.of(at, ZoneOffset.UTC)).isEqualTo("2026-11-20 01:45 +00:00");
        assertThat(ReadableTime.withZone(at, ZoneOffset.UTC)).isEqualTo("2026-11-20 01:45 +00:00 UTC");
        assertThat(ReadableTime.withZone(at, ZoneId.of("UTC"))).endsWith("+00:00 UTC");
    }

    @Test
    void secondsAreShownOnlyWhenThereAreSome() {
        assertThat(ReadableTime.timeOf(Instant.parse("2026-11-20T01:45:07.250Z"), LA))
                .isEqualTo("17:45:07 -08:00");
    }

    @Test
    void aZoneIsReadBackFromTheNameTheStatusGivesIt() {
        assertThat(ReadableTime.zone("America/Los_Angeles")).isEqualTo(LA);
        assertThat(ReadableTime.zone(ReadableTime.zoneName(ZoneOffset.UTC))).isEqualTo(ZoneId.of("UTC"));
        assertThat(ReadableTime.zone(null)).isEqualTo(ZoneOffset.UTC);
    }

    @Test
    void theUtcInstantsOfAStoredMessageAreShownInTheZoneAndTheRestIsLeftAlone() {
        String stored = "wait on NOT READY until 2026-11-20T01:45:00.000Z handed over to x_2026-11-19_daily_ab12cd34"
                + " (absorbed by 2026-11-20T02:00Z; run 2026-11-20 stays)";

        assertThat(ReadableTime.inText(stored, LA))
                .isEqualTo("wait on NOT READY until 2026-11-19 17:45 -08:00 handed over to x_2026-11-19_daily_ab12cd34"
                        + " (absorbed by 2026-11-19 18:00 -08:00; run 2026-11-20 stays)");
        assertThat(ReadableTime.inText("no time here", LA)).isEqualTo("no time here");
        assertThat(ReadableTime.inText(null, LA)).isNull();
        assertThat(ReadableTime.inText("at 2026-03-10T09:00:00Z", java.time.ZoneOffset.UTC))
                .isEqualTo("at 2026-03-10 09:00 +00:00");
    }
}
