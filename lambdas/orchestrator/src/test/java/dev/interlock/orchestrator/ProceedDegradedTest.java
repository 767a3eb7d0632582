package dev.interlock.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.keys.LockKey;
import dev.interlock.model.run.RunLogStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The readiness rule's deadline fallback at run time: {@code checkReadiness} waits before {@code proceedAt}, proceeds
 * without the non-essential traits after it (event, alert, the run's record) only when the essential ones passed, and
 * {@code logResult} carries what the run went without into the run log.
 */
class ProceedDegradedTest {

    private final Fixture f = new Fixture();

    /** The clock stands at 10:00 UTC (Fixture.T0): proceedAt is half an hour later. */
    private static final String FALLBACK =
            "readinessRule: {type: all-required-pass, proceedAt: \"10:30\", essential: [source-freshness]}\n";

    private static final Instant PROCEED_AT = Instant.parse("2026-03-02T10:30:00Z");

    private static List<Map<String, Object>> essentialPassesUpstreamFails() {
        return List.of(
                Fixture.trait("source-freshness", "PASS", true),
                Fixture.trait("upstream-dependency", "FAIL", true),
                Fixture.trait("resource-availability", "PASS", true));
    }

    private JsonNode check(String runId, List<Map<String, Object>> results) {
        return f.call(f.request(OrchestratorAction.CHECK_READINESS, runId, Map.of("traitResults", results)));
    }

    @Test
    void beforeProceedAtTheDayWaitsAndSaysFromWhenTheEssentialTraitsWillDo() {
        f.register(FALLBACK);
        String runId = f.resolve();

        JsonNode response = check(runId, essentialPassesUpstreamFails());

        assertThat(response.get("result").asText()).isEqualTo("skip");
        assertThat(response.get("payload").get("proceededWithout")).isEmpty();
        assertThat(f.events(EventKind.READINESS_CHECKED))
                .singleElement()
                .satisfies(e -> assertThat(e.message())
                        .isEqualTo("blocking: upstream-dependency (needs every required trait); from proceedAt "
                                + "2026-03-02 10:30 +00:00 the essential source-freshness will do"));
        assertThat(f.events(EventKind.PROCEEDED_DEGRADED)).isEmpty();
        assertThat(f.alerts.of(AlertKind.PROCEEDED_DEGRADED)).isEmpty();
        assertThat(f.provider.runs().get(runId).orElseThrow().proceededWithout())
                .isEmpty();
    }

    @Test
    void atProceedAtTheDayProceedsWithoutTheMissingTraitAndRecordsItOnceOnTheRunAsEventAndAlert() {
        f.register(FALLBACK);
        String runId = f.resolve();
        f.clock.set(PROCEED_AT);

        JsonNode response = check(runId, essentialPassesUpstreamFails());
        JsonNode repeat = check(runId, essentialPassesUpstreamFails());

        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(response.get("payload").get("ready").asBoolean()).isTrue();
        assertThat(response.get("payload").get("proceededWithout").toString()).isEqualTo("[\"upstream-dependency\"]");
        assertThat(repeat).isEqualTo(response);
        assertThat(f.provider.runs().get(runId).orElseThrow().proceededWithout())
                .containsExactly("upstream-dependency");
        assertThat(f.events(EventKind.PROCEEDED_DEGRADED))
                .as("a repeated call (a Lambda retry) records the degraded start once")
                .singleElement()
                .satisfies(e -> {
                    assertThat(e.message())
                            .isEqualTo("proceeded without upstream-dependency: proceedAt 2026-03-02 10:30 +00:00 "
                                    + "passed and the essential source-freshness passed");
                    assertThat(e.details())
                            .containsEntry("proceededWithout", List.of("upstream-dependency"))
                            .containsEntry("essential", List.of("source-freshness"))
                            .containsEntry("proceedAt", "2026-03-02T10:30:00.000Z");
                });
        assertThat(f.events(EventKind.READINESS_CHECKED))
                .allSatisfy(e -> assertThat(e.status()).isEqualTo("READY"));
        assertThat(f.alerts.of(AlertKind.PROCEEDED_DEGRADED)).singleElement().satisfies(a -> {
            assertThat(a.level()).isEqualTo(AlertLevel.WARNING);
            assertThat(a.message()).contains("proceeded without upstream-dependency");
            assertThat(a.details()).containsEntry("proceededWithout", List.of("upstream-dependency"));
        });
    }

    /** A rollup's verdict: 23 of the upstream's 24 hours in, hourly.0500 missing, minCount 20. */
    private static List<Map<String, Object>> rollupWithEnoughHours() {
        Map<String, Object> tally = new LinkedHashMap<>();
        tally.put("periods", 24);
        tally.put("in", 23);
        tally.put("missing", List.of("hourly.0500"));
        tally.put("needed", 20);
        tally.put("enough", true);
        return List.of(
                Fixture.trait("source-freshness", "PASS", true),
                Fixture.trait("upstream-dependency", "FAIL", true, Map.of("upstreamPipeline", "up", "rollup", tally)),
                Fixture.trait("resource-availability", "PASS", true));
    }

    @Test
    void withoutAFallbackARollupsMinCountProceedsAtOnceNamingTheMissingHours() {
        f.register("");
        String runId = f.resolve();

        JsonNode response = check(runId, rollupWithEnoughHours());

        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(response.get("payload").get("proceededWithout").toString())
                .isEqualTo("[\"upstream-dependency (1 of 24 missing: hourly.0500)\"]");
        assertThat(f.provider.runs().get(runId).orElseThrow().proceededWithout())
                .containsExactly("upstream-dependency (1 of 24 missing: hourly.0500)");
        assertThat(f.events(EventKind.PROCEEDED_DEGRADED)).singleElement().satisfies(e -> {
            assertThat(e.message())
                    .isEqualTo("proceeded without upstream-dependency (1 of 24 missing: hourly.0500): the rollup's "
                            + "minCount of periods was in");
            assertThat(e.details())
                    .containsEntry("proceededWithout", List.of("upstream-dependency (1 of 24 missing: hourly.0500)"))
                    .doesNotContainKey("proceedAt");
        });
        assertThat(f.alerts.of(AlertKind.PROCEEDED_DEGRADED))
                .singleElement()
                .satisfies(a -> assertThat(a.message()).contains("1 of 24 missing: hourly.0500"));
    }

    @Test
    void beforeProceedAtARollupsMinCountWaitsAndFromItProceeds() {
        f.register(FALLBACK);
        String runId = f.resolve();

        JsonNode waiting = check(runId, rollupWithEnoughHours());
        f.clock.set(PROCEED_AT);
        JsonNode proceeding = check(runId, rollupWithEnoughHours());

        assertThat(waiting.get("result").asText()).isEqualTo("skip");
        assertThat(proceeding.get("result").asText()).isEqualTo("proceed");
        assertThat(proceeding.get("payload").get("proceededWithout").toString())
                .isEqualTo("[\"upstream-dependency (1 of 24 missing: hourly.0500)\"]");
        assertThat(f.events(EventKind.PROCEEDED_DEGRADED))
                .singleElement()
                .satisfies(e -> assertThat(e.message())
                        .isEqualTo("proceeded without upstream-dependency (1 of 24 missing: hourly.0500): proceedAt "
                                + "2026-03-02 10:30 +00:00 passed and the essential source-freshness passed"));
    }

    @Test
    void pastProceedAtADayWhoseEssentialTraitFailedKeepsWaitingAndNamesIt() {
        f.register(FALLBACK);
        String runId = f.resolve();
        f.clock.set(PROCEED_AT.plus(Duration.ofHours(2)));

        JsonNode response = check(
                runId,
                List.of(
                        Fixture.trait("source-freshness", "FAIL", true),
                        Fixture.trait("upstream-dependency", "PASS", true),
                        Fixture.trait("resource-availability", "PASS", true)));

        assertThat(response.get("result").asText()).isEqualTo("skip");
        assertThat(f.events(EventKind.READINESS_CHECKED))
                .singleElement()
                .satisfies(e -> assertThat(e.message())
                        .endsWith("past proceedAt 2026-03-02 10:30 +00:00, waiting for the essential "
                                + "source-freshness"));
        assertThat(f.events(EventKind.PROCEEDED_DEGRADED)).isEmpty();
        assertThat(f.alerts.sent).isEmpty();
    }

    @Test
    void withoutAFallbackNothingChanges() {
        f.register("");
        String runId = f.resolve();
        f.clock.set(PROCEED_AT.plus(Duration.ofHours(10)));

        JsonNode response = check(runId, essentialPassesUpstreamFails());

        assertThat(response.get("result").asText()).isEqualTo("skip");
        assertThat(f.events(EventKind.READINESS_CHECKED))
                .singleElement()
                .satisfies(e -> assertThat(e.message())
                        .isEqualTo("blocking: upstream-dependency (needs every required trait)"));
    }

    @Test
    void theRunLogKeepsWhatACompletedRunWentWithoutAndAFullyReadyOneLeavesItOut() {
        f.register(FALLBACK);
        String runId = f.resolve();
        f.clock.set(PROCEED_AT);
        check(runId, essentialPassesUpstreamFails());

        f.call(f.request(
                OrchestratorAction.LOG_RESULT,
                runId,
                Map.of("status", "COMPLETED", "proceededWithout", List.of("upstream-dependency"))));

        assertThat(f.runLog().orElseThrow().status()).isEqualTo(RunLogStatus.COMPLETED);
        assertThat(f.runLog().orElseThrow().proceededWithout()).containsExactly("upstream-dependency");
        assertThat(InterlockJson.write(f.runLog().orElseThrow()))
                .contains("\"proceededWithout\":[\"upstream-dependency\"]");

        Fixture fully = new Fixture();
        fully.register("");
        String full = fully.resolve();
        fully.call(fully.request(
                OrchestratorAction.LOG_RESULT, full, Map.of("status", "COMPLETED", "proceededWithout", List.of())));
        assertThat(fully.runLog().orElseThrow().proceededWithout()).isEmpty();
        assertThat(InterlockJson.write(fully.runLog().orElseThrow()))
                .as("absent from the JSON, as in run logs written before")
                .doesNotContain("proceededWithout");
    }

    @Test
    void aFailedDegradedRunLeavesWhatItWentWithoutInTheRunLogFromTheRun() {
        f.register(FALLBACK);
        String runId = f.resolve();
        f.clock.set(PROCEED_AT);
        check(runId, essentialPassesUpstreamFails());

        f.call(f.request(
                OrchestratorAction.LOG_RESULT,
                runId,
                Map.of("status", "FAILED", "failureCategory", "PERMANENT", "message", "job refused", "phase", "run")));

        assertThat(f.runLog().orElseThrow().status()).isEqualTo(RunLogStatus.FAILED);
        assertThat(f.runLog().orElseThrow().proceededWithout()).containsExactly("upstream-dependency");
    }

    private JsonNode checkRound(String traitResultsJson) {
        f.provider
                .locks()
                .acquire(new LockKey("orders", "daily", Fixture.DATE), Fixture.EXECUTION, Duration.ofHours(5));
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("executionStartTime", "2026-03-02T09:00:00Z");
        payload.put("executionTimeoutSeconds", 14400);
        payload.put("traitResults", InterlockJson.read(traitResultsJson, JsonNode.class));
        return f.call(f.request(OrchestratorAction.CHECK_VALIDATION_DEADLINE, "run-1", payload))
                .get("payload");
    }

    @Test
    void aPermanentErrorOfATraitTheDayMayGoWithoutDoesNotStopTheWaitButAnEssentialOnesDoes() {
        f.register(FALLBACK);

        JsonNode nonEssential = checkRound("""
                [{"traitType":"upstream-dependency","status":"ERROR","reason":"403","failureCategory":"PERMANENT","required":true},
                 {"traitType":"source-freshness","status":"PASS","required":true}]
                """);
        assertThat(nonEssential.get("exhausted").asBoolean()).isFalse();

        JsonNode essential = checkRound("""
                [{"traitType":"source-freshness","status":"ERROR","reason":"403","failureCategory":"PERMANENT","required":true},
                 {"traitType":"upstream-dependency","status":"PASS","required":true}]
                """);
        assertThat(essential.get("exhausted").asBoolean()).isTrue();
        assertThat(essential.get("trait").asText()).isEqualTo("source-freshness");
    }

    @Test
    void aDryRunPastProceedAtRecordsTheStartItWouldMakeWithoutTheMissingTrait() {
        f.register(FALLBACK + "dryRun: true\n");
        String runId = f.resolve();
        f.clock.set(PROCEED_AT);

        JsonNode response = check(runId, essentialPassesUpstreamFails());

        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(response.get("payload").get("dryRun").asBoolean()).isTrue();
        assertThat(f.events(EventKind.DRY_RUN_WOULD_TRIGGER)).singleElement().satisfies(e -> {
            assertThat(e.message()).contains("without upstream-dependency");
            assertThat(e.details()).containsEntry("proceededWithout", List.of("upstream-dependency"));
        });
        // Raised on the alert path as for a real pipeline: the wired functions' RoutedAlerts records it as
        // DRY_RUN_WOULD_ALERT instead of publishing it (the fixture's recording publisher sits below that).
        assertThat(f.alerts.kinds()).containsExactly("PROCEEDED_DEGRADED");
        assertThat(f.events(EventKind.PROCEEDED_DEGRADED))
                .as("a shadow records only DRY_RUN_* events")
                .isEmpty();
        assertThat(f.provider.runs().get(runId).orElseThrow().proceededWithout())
                .as("its run is cancelled, not started degraded")
                .isEmpty();
    }
}
