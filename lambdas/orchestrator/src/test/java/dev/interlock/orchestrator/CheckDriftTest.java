package dev.interlock.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.run.RunLogStatus;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CheckDriftTest {

    private final Fixture f = new Fixture();

    private JsonNode drift(List<Map<String, Object>> baseline, List<Map<String, Object>> current) {
        return f.call(
                f.request(OrchestratorAction.CHECK_DRIFT, "run-1", Map.of("baseline", baseline, "current", current)));
    }

    @Test
    void unchangedTraitsAreNoDrift() {
        f.register("monitoring: {enabled: true, duration: 1h}\n");

        JsonNode response = drift(Fixture.allRequired("PASS"), Fixture.allRequired("PASS"));

        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(response.get("payload").get("driftDetected").asBoolean()).isFalse();
        assertThat(response.get("payload").get("drifted")).isEmpty();
        assertThat(f.alerts.sent).isEmpty();
    }

    @Test
    void aTraitTurningPassIsDriftAlertedOnce() {
        f.register("monitoring: {enabled: true, duration: 1h}\n");
        var baseline = List.of(
                Fixture.trait("source-freshness", "PASS", true),
                Fixture.trait("upstream-dependency", "PASS", true),
                Fixture.trait("resource-availability", "PASS", true),
                Fixture.trait("data-quality-sample", "FAIL", false));
        var current = List.of(
                Fixture.trait("source-freshness", "PASS", true),
                Fixture.trait("upstream-dependency", "PASS", true),
                Fixture.trait("resource-availability", "PASS", true),
                Fixture.trait("data-quality-sample", "PASS", false));

        JsonNode first = drift(baseline, current);
        JsonNode second = drift(baseline, current);

        assertThat(first.get("payload").get("driftDetected").asBoolean()).isTrue();
        assertThat(first.get("payload").get("drifted").toString()).isEqualTo("[\"data-quality-sample\"]");
        assertThat(second.get("payload").get("driftDetected").asBoolean()).isTrue();
        assertThat(f.alerts.of(AlertKind.DRIFT_DETECTED)).hasSize(1);
        assertThat(f.events(EventKind.MONITORING_DRIFT_DETECTED)).hasSize(2);
    }

    @Test
    void aRoundWhoseRunWasSupersededIsNeitherComparedNorRecorded() {
        f.register("monitoring: {enabled: true, duration: 8h}\n");
        // A rerun of the day completed as run-2 while run-1's monitoring waited: run-1's baseline is stale.
        f.writeRunLog("run-2", RunLogStatus.COMPLETED);
        var baseline = List.of(Fixture.trait("data-quality-sample", "FAIL", false));
        var current = List.of(Fixture.trait("data-quality-sample", "PASS", false));

        JsonNode response = drift(baseline, current);

        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(response.get("payload").get("driftDetected").asBoolean()).isFalse();
        assertThat(f.alerts.sent).isEmpty();
        assertThat(f.events(EventKind.TRAIT_EVALUATED)).isEmpty();
        assertThat(f.events(EventKind.MONITORING_DRIFT_DETECTED)).isEmpty();
    }

    @Test
    void aResultThatAgedIsNoDrift() {
        f.register("monitoring: {enabled: true, duration: 1h, driftField: count, driftThreshold: 100}\n");
        var current = List.of(
                Fixture.trait("source-freshness", "STALE", true),
                Fixture.trait("upstream-dependency", "FAIL", true),
                Fixture.trait("resource-availability", "PASS", true));

        JsonNode response = drift(Fixture.allRequired("PASS"), current);

        assertThat(response.get("payload").get("driftDetected").asBoolean()).isFalse();
        assertThat(f.events(EventKind.MONITORING_DRIFT_DETECTED)).isEmpty();
        assertThat(f.alerts.sent).isEmpty();
    }

    @Test
    void aDriftFieldMovingMoreThanTheThresholdIsDrift() {
        f.register("monitoring: {enabled: true, duration: 1h, driftField: count, driftThreshold: 100}\n");

        JsonNode moved = drift(
                List.of(Fixture.trait("source-freshness", "PASS", true, Map.of("count", 1000))),
                List.of(Fixture.trait("source-freshness", "PASS", true, Map.of("count", 1101))));

        assertThat(moved.get("payload").get("drifted").toString()).isEqualTo("[\"source-freshness\"]");
    }

    @Test
    void aDriftFieldMovingByTheThresholdOrLessIsNoDrift() {
        f.register("monitoring: {enabled: true, duration: 1h, driftField: count, driftThreshold: 100}\n");

        JsonNode within = drift(
                List.of(Fixture.trait("source-freshness", "PASS", true, Map.of("count", 1000))),
                List.of(Fixture.trait("source-freshness", "PASS", true, Map.of("count", 900))));

        assertThat(within.get("payload").get("driftDetected").asBoolean()).isFalse();
    }

    @Test
    void anEvaluatorErrorWhileMonitoringIsNotDrift() {
        f.register("monitoring: {enabled: true, duration: 1h}\n");

        JsonNode response = drift(
                List.of(Fixture.trait("source-freshness", "PASS", true)),
                List.of(Fixture.trait("source-freshness", "ERROR", true)));

        assertThat(response.get("payload").get("driftDetected").asBoolean()).isFalse();
    }

    @Test
    void aMissingBaselineIsAnErrorWithoutDrift() {
        f.register("monitoring: {enabled: true, duration: 1h}\n");

        JsonNode response = f.call(
                f.request(OrchestratorAction.CHECK_DRIFT, "run-1", Map.of("current", Fixture.allRequired("PASS"))));

        assertThat(response.get("result").asText()).isEqualTo("error");
        assertThat(response.get("reason").asText()).isEqualTo("payload.baseline must be an array of trait results");
        assertThat(response.get("payload").get("driftDetected").asBoolean()).isFalse();
        assertThat(response.get("payload").get("drifted")).isEmpty();
    }

    @Test
    void withoutAThresholdAnyMovementOfTheDriftFieldIsDrift() {
        f.register("monitoring: {enabled: true, duration: 1h, driftField: count}\n");

        JsonNode response = drift(
                List.of(Fixture.trait("source-freshness", "PASS", true, Map.of("count", 1000))),
                List.of(Fixture.trait("source-freshness", "PASS", true, Map.of("count", 1001))));

        assertThat(response.get("payload").get("drifted").toString()).isEqualTo("[\"source-freshness\"]");
    }

    @Test
    void aDriftFieldThatIsNotANumberNeverDrifts() {
        f.register("monitoring: {enabled: true, duration: 1h, driftField: count, driftThreshold: 1}\n");

        JsonNode response = drift(
                List.of(Fixture.trait("source-freshness", "PASS", true, Map.of("count", "many"))),
                List.of(Fixture.trait("source-freshness", "PASS", true, Map.of("count", "more"))));

        assertThat(response.get("payload").get("driftDetected").asBoolean()).isFalse();
    }
}
