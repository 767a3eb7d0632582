package dev.interlock.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.force.ForceReady;
import dev.interlock.model.force.Forced;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.run.RunLogStatus;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A day an operator forced ready, at run time: {@code checkReadiness} proceeds without the blocking traits for that day
 * and schedule only, while the force lasts, records who forced it on the run (once), with a {@code PROCEEDED_FORCED}
 * event and a {@code FORCED_READY} alert; {@code logResult} copies it into the run log; a dry run still triggers
 * nothing.
 */
class ForcedReadyTest {

    private final Fixture f = new Fixture();

    private static List<Map<String, Object>> upstreamFails() {
        return List.of(
                Fixture.trait("source-freshness", "PASS", true),
                Fixture.trait("upstream-dependency", "FAIL", true),
                Fixture.trait("resource-availability", "PASS", true));
    }

    private ForceReady force(java.time.LocalDate date, String scheduleId, Duration lasting) {
        return new ForceReady(
                Fixture.PIPELINE, date, scheduleId, "checked by hand", "ana", Fixture.T0, Fixture.T0.plus(lasting));
    }

    private JsonNode check(String runId) {
        return f.call(f.request(OrchestratorAction.CHECK_READINESS, runId, Map.of("traitResults", upstreamFails())));
    }

    @Test
    void aForcedDayProceedsWithoutItsBlockingTraitsRecordsWhoOnceAndTheRunLogKeepsIt() {
        f.register("");
        String runId = f.resolve();
        f.provider.forces().put(force(Fixture.DATE, "daily", Duration.ofHours(2)));

        JsonNode response = check(runId);
        JsonNode repeat = check(runId);

        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(response.at("/payload/proceededWithout").toString()).isEqualTo("[\"upstream-dependency\"]");
        assertThat(repeat).isEqualTo(response);
        Forced forced = new Forced("ana", "checked by hand", Fixture.T0);
        assertThat(f.provider.runs().get(runId).orElseThrow().forced()).isEqualTo(forced);
        assertThat(f.events(EventKind.PROCEEDED_FORCED))
                .as("a repeated call (a Lambda retry) records the forced start once")
                .singleElement()
                .satisfies(e -> {
                    assertThat(e.message())
                            .isEqualTo("forced ready by ana: checked by hand; proceeded without upstream-dependency");
                    assertThat(e.details())
                            .containsEntry("forcedBy", "ana")
                            .containsEntry("proceededWithout", List.of("upstream-dependency"));
                });
        assertThat(f.events(EventKind.READINESS_CHECKED))
                .allSatisfy(e -> assertThat(e.status()).isEqualTo("READY"));
        assertThat(f.alerts.of(AlertKind.FORCED_READY)).singleElement().satisfies(a -> {
            assertThat(a.level()).isEqualTo(AlertLevel.WARNING);
            assertThat(a.message()).contains("forced ready by ana: checked by hand");
        });

        f.call(f.request(
                OrchestratorAction.LOG_RESULT,
                runId,
                Map.of("status", "COMPLETED", "proceededWithout", List.of("upstream-dependency"))));
        assertThat(f.runLog().orElseThrow().status()).isEqualTo(RunLogStatus.COMPLETED);
        assertThat(f.runLog().orElseThrow().forced()).isEqualTo(forced);
        assertThat(f.runLog().orElseThrow().proceededWithout()).containsExactly("upstream-dependency");
    }

    @Test
    void aFailedForcedRunLeavesWhoForcedItInTheRunLog() {
        f.register("");
        String runId = f.resolve();
        f.provider.forces().put(force(Fixture.DATE, "daily", Duration.ofHours(2)));
        check(runId);

        f.call(f.request(
                OrchestratorAction.LOG_RESULT,
                runId,
                Map.of("status", "FAILED", "failureCategory", "PERMANENT", "message", "job refused", "phase", "run")));

        assertThat(f.runLog().orElseThrow().status()).isEqualTo(RunLogStatus.FAILED);
        assertThat(f.runLog().orElseThrow().forced().by()).isEqualTo("ana");
    }

    @Test
    void aForceOfAnotherDayAnotherScheduleOrOneThatLapsedForcesNothing() {
        f.register("");
        String runId = f.resolve();
        f.provider.forces().put(force(Fixture.DATE.minusDays(1), "daily", Duration.ofDays(3)));
        f.provider.forces().put(force(Fixture.DATE, "hourly", Duration.ofDays(3)));

        assertThat(check(runId).get("result").asText()).isEqualTo("skip");

        f.provider.forces().put(force(Fixture.DATE, "daily", Duration.ofMinutes(5)));
        f.clock.set(Fixture.T0.plus(Duration.ofMinutes(5)));
        assertThat(check(runId).get("result").asText()).as("lapsed").isEqualTo("skip");
        assertThat(f.events(EventKind.PROCEEDED_FORCED)).isEmpty();
        assertThat(f.alerts.of(AlertKind.FORCED_READY)).isEmpty();
        assertThat(f.provider.runs().get(runId).orElseThrow().forced()).isNull();
        assertThat(InterlockJson.write(f.provider.runs().get(runId).orElseThrow()))
                .as("absent from the JSON, as in runs written before")
                .doesNotContain("forced");
    }

    @Test
    void aForcedDryRunRecordsWhatItWouldHaveTriggeredAndTriggersNothing() {
        f.register("dryRun: true\n");
        String runId = f.resolve();
        f.provider.forces().put(force(Fixture.DATE, "daily", Duration.ofHours(2)));

        JsonNode response = check(runId);

        assertThat(response.at("/payload/dryRun").asBoolean()).isTrue();
        assertThat(f.events(EventKind.DRY_RUN_WOULD_TRIGGER))
                .singleElement()
                .satisfies(e -> assertThat(e.message()).contains("forced ready by ana: checked by hand"));
        assertThat(f.events(EventKind.PROCEEDED_FORCED)).isEmpty();
    }
}
