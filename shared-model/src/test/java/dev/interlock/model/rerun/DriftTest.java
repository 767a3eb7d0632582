package dev.interlock.model.rerun;

import dev.interlock.model.pipeline.MonitoringConfig;
import dev.interlock.model.trait.TraitResult;
import dev.interlock.model.trait.TraitStatus;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class DriftTest {

    private static final LocalDate D = LocalDate.of(2026, 2, 23);
    private static final Instant NOW = Instant.parse("2026-02-23T12:00:00Z");

    private static TraitResult result(String type, TraitStatus status, Map<String, Object> value) {
        return new TraitResult("gold", "daily", D, type, status, value, null, null, true, null, null);
    }

    @Test
    void aStatusChangeIsDrift() {
        var drifted = Drift.detect(List.of(result("fresh", TraitStatus.PASS, null), result("count", TraitStatus.PASS, null)),
                List.of(result("fresh", TraitStatus.FAIL, null), result("count", TraitStatus.PASS, null)),
                new MonitoringConfig(true, "1h", null, null), "r1", NOW);
        assertThat(drifted).containsExactly(new LateArrival("gold", D, "daily", "fresh", "r1", TraitStatus.PASS, TraitStatus.FAIL, 0, NOW));
    }

    @Test
    void aDriftFieldMovingBeyondTheThresholdIsDrift() {
        var monitoring = new MonitoringConfig(true, "1h", "stats.count", 100.0);
        var baseline = List.of(result("count", TraitStatus.PASS, Map.of("stats", Map.of("count", 1500))));
        assertThat(Drift.detect(baseline, List.of(result("count", TraitStatus.PASS, Map.of("stats", Map.of("count", 1600)))),
                monitoring, "r1", NOW)).isEmpty();
        assertThat(Drift.detect(baseline, List.of(result("count", TraitStatus.PASS, Map.of("stats", Map.of("count", "1601")))),
                monitoring, "r1", NOW)).singleElement().satisfies(l -> assertThat(l.recordDelta()).isEqualTo(101.0));
    }

    @Test
    void withoutAThresholdAnyMovementIsDriftAndMissingValuesAreNot() {
        var monitoring = new MonitoringConfig(true, "1h", "count", null);
        var baseline = List.of(result("count", TraitStatus.PASS, Map.of("count", 10)));
        assertThat(Drift.detect(baseline, List.of(result("count", TraitStatus.PASS, Map.of("count", 9))), monitoring, "r1", NOW))
                .extracting(LateArrival::recordDelta).containsExactly(-1.0);
        assertThat(Drift.detect(baseline, List.of(result("count", TraitStatus.PASS, Map.of())), monitoring, "r1", NOW)).isEmpty();
        assertThat(Drift.detect(List.of(), List.of(result("count", TraitStatus.FAIL, null)), monitoring, "r1", NOW)).isEmpty();
    }
}
