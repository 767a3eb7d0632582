package dev.interlock.model.rerun;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.pipeline.MonitoringConfig;
import dev.interlock.model.trait.TraitVerdict;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DriftTest {

    private static final MonitoringConfig COUNT_BY_100 = new MonitoringConfig(true, "2h", "actual", 100.0);

    private static TraitVerdict result(String type, String status, Map<String, Object> value) {
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put("traitType", type);
        wire.put("status", status);
        wire.put("value", value);
        wire.put("required", true);
        return InterlockJson.convert(wire, TraitVerdict.class);
    }

    @Test
    void aTraitTurningPassIsNewDataAndSoDrift() {
        List<Drift.Change> changes = Drift.detect(
                List.of(result("quality", "FAIL", null), result("fresh", "STALE", null), result("count", "PASS", null)),
                List.of(result("quality", "PASS", null), result("fresh", "PASS", null), result("count", "PASS", null)),
                MonitoringConfig.DISABLED);

        assertThat(changes)
                .containsExactly(
                        new Drift.Change("quality", null, "FAIL", "PASS"),
                        new Drift.Change("fresh", null, "STALE", "PASS"));
        assertThat(changes.getFirst().details()).isEqualTo(Map.of("from", "FAIL", "to", "PASS"));
    }

    @Test
    void aResultThatAgedIsNeverDrift() {
        // PASS -> STALE (a freshness check ageing), PASS -> FAIL (its window passed), FAIL <-> STALE: no new data.
        assertThat(Drift.detect(
                        List.of(
                                result("fresh", "PASS", Map.of("ageSeconds", 10)),
                                result("window", "PASS", null),
                                result("other", "FAIL", null)),
                        List.of(
                                result("fresh", "STALE", Map.of("ageSeconds", 4000)),
                                result("window", "FAIL", null),
                                result("other", "STALE", null)),
                        COUNT_BY_100))
                .isEmpty();
    }

    @Test
    void theDriftFieldMovingByMoreThanTheThresholdIsDrift() {
        List<TraitVerdict> baseline = List.of(result("count", "PASS", Map.of("actual", 1500)));

        assertThat(Drift.detect(baseline, List.of(result("count", "PASS", Map.of("actual", 1600))), COUNT_BY_100))
                .isEmpty();
        assertThat(Drift.detect(baseline, List.of(result("count", "PASS", Map.of("actual", 1601))), COUNT_BY_100))
                .containsExactly(new Drift.Change("count", "actual", 1500.0, 1601.0));
        // Moved either way: a restated, smaller data set is newer data too.
        assertThat(Drift.detect(baseline, List.of(result("count", "FAIL", Map.of("actual", 900))), COUNT_BY_100))
                .extracting(Drift.Change::field)
                .containsExactly("actual");
    }

    @Test
    void withoutBothNumbersOrWithAnErrorOrWithoutABaselineNothingDrifts() {
        List<TraitVerdict> baseline = List.of(result("count", "PASS", Map.of("actual", 1500)));

        assertThat(Drift.detect(baseline, List.of(result("count", "PASS", Map.of("actual", "many"))), COUNT_BY_100))
                .isEmpty();
        assertThat(Drift.detect(baseline, List.of(result("count", "PASS", Map.of())), COUNT_BY_100))
                .isEmpty();
        assertThat(Drift.detect(baseline, List.of(result("count", "ERROR", Map.of("actual", 9000))), COUNT_BY_100))
                .isEmpty();
        assertThat(Drift.detect(
                        List.of(result("count", "ERROR", null)), List.of(result("count", "PASS", null)), COUNT_BY_100))
                .isEmpty();
        assertThat(Drift.detect(List.of(), List.of(result("count", "PASS", Map.of("actual", 9000))), COUNT_BY_100))
                .isEmpty();
    }
}
