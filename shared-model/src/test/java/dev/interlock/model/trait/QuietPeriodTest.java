package dev.interlock.model.trait;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QuietPeriodTest {

    private static final Instant NOW = Instant.parse("2026-03-02T06:10:00Z");

    private static TraitVerdict pass(String type, Map<String, Object> value) {
        return new TraitVerdict(type, TraitStatus.PASS, value, null, null, true);
    }

    @Test
    void theLatestChangeAnyTraitReportsHoldsTheRoundBackUntilItHasRested() {
        List<TraitVerdict> round = List.of(
                pass("source-freshness", Map.of("updatedAt", "2026-03-02T06:02:00Z")),
                pass("upstream-dependency", Map.of("completedAt", "2026-03-02T06:05:00Z")),
                pass("resource-availability", Map.of("builtin", "always-pass")));

        assertThat(QuietPeriod.lastChange(round))
                .contains(new QuietPeriod.Change("upstream-dependency", Instant.parse("2026-03-02T06:05:00Z")));
        assertThat(QuietPeriod.holdsUntil(round, Duration.ofMinutes(10), NOW))
                .contains(Instant.parse("2026-03-02T06:15:00Z"));
        assertThat(QuietPeriod.holdsUntil(round, Duration.ofMinutes(5), NOW))
                .as("rested exactly as long as asked")
                .isEmpty();
    }

    @Test
    void aRoundWhoseTraitsReportNoChangeTimeOrWithoutAQuietPeriodIsNeverHeldBack() {
        List<TraitVerdict> noTimes = List.of(pass("a", Map.of("count", 3)), pass("b", null));
        assertThat(QuietPeriod.holdsUntil(noTimes, Duration.ofMinutes(10), NOW)).isEmpty();
        List<TraitVerdict> fresh = List.of(pass("a", Map.of("updatedAt", "2026-03-02T06:09:59Z")));
        assertThat(QuietPeriod.holdsUntil(fresh, null, NOW)).isEmpty();
        assertThat(QuietPeriod.holdsUntil(fresh, Duration.ZERO, NOW)).isEmpty();
    }

    @Test
    void anEvaluatorsOwnFieldOfAnotherShapeSaysNothingAboutChange() {
        List<TraitVerdict> odd =
                List.of(pass("a", Map.of("updatedAt", "yesterday")), pass("b", Map.of("updatedAt", 5)));
        assertThat(QuietPeriod.lastChange(odd)).isEmpty();
    }
}
