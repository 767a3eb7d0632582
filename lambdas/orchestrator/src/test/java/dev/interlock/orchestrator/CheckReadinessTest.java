package dev.interlock.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.run.RunStatus;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CheckReadinessTest {

    private final Fixture f = new Fixture();

    private JsonNode check(String runId, List<Map<String, Object>> results) {
        return f.call(f.request(OrchestratorAction.CHECK_READINESS, runId, Map.of("traitResults", results)));
    }

    @Test
    void everyRequiredPassIsReady() {
        f.register("");
        String runId = f.resolve();

        JsonNode response = check(
                runId,
                List.of(
                        Fixture.trait("source-freshness", "PASS", true),
                        Fixture.trait("upstream-dependency", "PASS", true),
                        Fixture.trait("schema-contract", "FAIL", false)));

        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(response.get("reason").asText()).isEmpty();
        assertThat(response.get("payload").get("ready").asBoolean()).isTrue();
        assertThat(response.get("payload").get("dryRun").asBoolean()).isFalse();
        assertThat(response.get("payload").get("blocking")).isEmpty();
        assertThat(f.events(EventKind.READINESS_CHECKED))
                .extracting(e -> e.status())
                .containsExactly("READY");
        assertThat(f.provider.runs().get(runId).orElseThrow().status()).isEqualTo(RunStatus.PENDING);
    }

    @Test
    void theRoundIsRecordedByCheckReadinessWithEachTraitsTtl() {
        f.register("");
        Map<String, Object> body = Map.of(
                "traitResults",
                List.of(
                        Fixture.trait("source-freshness", "PASS", true, Map.of("ageSeconds", 12)),
                        Fixture.trait("upstream-dependency", "FAIL", true)),
                "traits",
                List.of(
                        Map.of("traitType", "source-freshness", "ttl", 300),
                        Map.of("traitType", "upstream-dependency", "ttl", 0)));

        f.call(f.request(OrchestratorAction.CHECK_READINESS, "run-1", body));

        assertThat(f.provider.traits().list("orders", Fixture.DATE, "daily"))
                .extracting(r -> r.traitType() + "=" + r.status() + " until " + r.expiresAt())
                .containsExactlyInAnyOrder(
                        "source-freshness=PASS until " + Fixture.T0.plusSeconds(300),
                        "upstream-dependency=FAIL until null");
        assertThat(f.events(EventKind.TRAIT_EVALUATED))
                .extracting(e -> e.traitType() + "=" + e.status())
                .containsExactlyInAnyOrder("source-freshness=PASS", "upstream-dependency=FAIL");
        assertThat(f.events(EventKind.READINESS_CHECKED))
                .singleElement()
                .satisfies(e -> assertThat(e.details()).containsEntry("blocking", List.of("upstream-dependency")));
    }

    @Test
    void aRequiredFailureBlocks() {
        f.register("");

        JsonNode response = check(
                "run-1",
                List.of(
                        Fixture.trait("source-freshness", "PASS", true),
                        Fixture.trait("upstream-dependency", "FAIL", true),
                        Fixture.trait("resource-availability", "STALE", true)));

        assertThat(response.get("result").asText()).isEqualTo("skip");
        assertThat(response.get("reason").asText()).isEqualTo("not ready");
        assertThat(response.get("payload").get("ready").asBoolean()).isFalse();
        assertThat(response.get("payload").get("blocking").toString())
                .isEqualTo("[\"upstream-dependency\",\"resource-availability\"]");
        assertThat(f.alerts.sent).isEmpty();
    }

    @Test
    void aRequiredErrorIsNotReadyAndAlertsOnceAcrossEvaluations() {
        f.register("");
        Map<String, Object> crashed = Fixture.trait("upstream-dependency", "ERROR", true);
        crashed.put("reason", "Lambda.Unknown");
        crashed.put("failureCategory", "TRANSIENT");
        crashed.put("value", null);

        JsonNode first = check("run-1", List.of(Fixture.trait("source-freshness", "PASS", true), crashed));
        JsonNode second = check("run-1", List.of(Fixture.trait("source-freshness", "PASS", true), crashed));

        assertThat(first.get("result").asText()).isEqualTo("skip");
        assertThat(first.get("payload").get("blocking").toString()).isEqualTo("[\"upstream-dependency\"]");
        assertThat(second.get("result").asText()).isEqualTo("skip");
        assertThat(f.alerts.of(AlertKind.TRAIT_ERROR)).hasSize(1);
        assertThat(f.alerts.sent.get(0).message()).isEqualTo("Trait evaluation failed for orders: upstream-dependency");
    }

    @Test
    void anOptionalErrorNeitherBlocksNorAlerts() {
        f.register("");

        JsonNode response = check(
                "run-1",
                List.of(
                        Fixture.trait("source-freshness", "PASS", true),
                        Fixture.trait("schema-contract", "ERROR", false)));

        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(f.alerts.sent).isEmpty();
        assertThat(f.logText()).contains("optional trait evaluation failed");
    }

    @Test
    void anUnknownStatusIsNotAPass() {
        f.register("");

        JsonNode response = check("run-1", List.of(Fixture.trait("source-freshness", "MAYBE", true)));

        assertThat(response.get("result").asText()).isEqualTo("skip");
    }

    @Test
    void aDryRunThatIsReadyRecordsWhatWouldHappenAndNeverTriggers() {
        f.register("dryRun: true\n");
        String runId = f.resolve();

        JsonNode response = check(runId, Fixture.allRequired("PASS"));

        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(response.get("payload").get("ready").asBoolean()).isTrue();
        assertThat(response.get("payload").get("dryRun").asBoolean()).isTrue();
        assertThat(f.events(EventKind.DRY_RUN_WOULD_TRIGGER)).hasSize(1);
        assertThat(f.events(EventKind.DRY_RUN_WOULD_TRIGGER).get(0).details()).containsEntry("triggerType", "http");
        assertThat(f.events(EventKind.TRIGGER_FIRED)).isEmpty();
        var run = f.provider.runs().get(runId).orElseThrow();
        assertThat(run.status()).isEqualTo(RunStatus.CANCELLED);
        assertThat(f.events(EventKind.RUN_STATE_CHANGED))
                .extracting(e -> e.status())
                .containsExactlyInAnyOrder("PENDING", "CANCELLED");
    }

    @Test
    void aDryRunThatIsNotReadyJustWaits() {
        f.register("dryRun: true\n");
        String runId = f.resolve();

        JsonNode response = check(runId, Fixture.allRequired("FAIL"));

        assertThat(response.get("result").asText()).isEqualTo("skip");
        assertThat(response.get("payload").get("dryRun").asBoolean()).isTrue();
        assertThat(f.events(EventKind.DRY_RUN_WOULD_TRIGGER)).isEmpty();
        assertThat(f.provider.runs().get(runId).orElseThrow().status()).isEqualTo(RunStatus.PENDING);
    }

    @Test
    void traitResultsThatAreNotAnArrayAreAnError() {
        f.register("");

        JsonNode response =
                f.call(f.request(OrchestratorAction.CHECK_READINESS, "run-1", Map.of("traitResults", "all good")));

        assertThat(response.get("result").asText()).isEqualTo("error");
        assertThat(response.get("reason").asText()).isEqualTo("payload.traitResults must be an array of trait results");
        assertThat(response.get("payload").get("ready").asBoolean()).isFalse();
        assertThat(response.get("payload").get("blocking")).isEmpty();
    }

    @Test
    void aMissingPipelineIsAnError() {
        JsonNode response = check("run-1", Fixture.allRequired("PASS"));

        assertThat(response.get("result").asText()).isEqualTo("error");
        assertThat(response.get("payload").get("ready").asBoolean()).isFalse();
    }
}
