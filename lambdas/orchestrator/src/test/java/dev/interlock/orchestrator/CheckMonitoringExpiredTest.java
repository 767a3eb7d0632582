package dev.interlock.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.keys.LockKey;
import dev.interlock.model.run.RunLogStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CheckMonitoringExpiredTest {

    private final Fixture f = new Fixture();

    /** A check from an execution whose state monitors run-1, completed at {@code startedAt}. */
    private JsonNode check(String startedAt, String executionStart) {
        return checkCarrying(startedAt, executionStart, carry(startedAt));
    }

    private static final LockKey LOCK = new LockKey(Fixture.PIPELINE, "daily", Fixture.DATE);

    @Test
    void itReleasesThisExecutionsLockBeforeTheWaitSoTheDayIsNotBlocked() {
        f.register("monitoring: {enabled: true, duration: 8h}\n");
        f.provider.locks().acquire(LOCK, Fixture.EXECUTION, Duration.ofHours(5));

        JsonNode first = check("2026-03-02T09:30:00.000Z", "2026-03-02T09:00:00Z");
        // A rerun takes the free lock; this execution's next check leaves it alone.
        f.provider.locks().acquire(LOCK, "orders_2026-03-02_daily_rerun", Duration.ofHours(5));
        JsonNode second = check("2026-03-02T09:30:00.000Z", "2026-03-02T09:00:00Z");

        assertThat(first.get("payload").get("expired").asBoolean()).isFalse();
        assertThat(second.get("payload").get("expired").asBoolean()).isFalse();
        assertThat(f.provider.locks().holder(LOCK))
                .hasValueSatisfying(h -> assertThat(h.owner()).isEqualTo("orders_2026-03-02_daily_rerun"));
    }

    @Test
    void aNewerRunOnTheDaysRunLogEndsMonitoringNamingIt() {
        f.register("monitoring: {enabled: true, duration: 8h}\n");
        f.writeRunLog("run-1", RunLogStatus.COMPLETED);
        JsonNode own = check("2026-03-02T09:30:00.000Z", "2026-03-02T09:00:00Z");
        f.writeRunLog("run-2", RunLogStatus.COMPLETED);
        JsonNode superseded = check("2026-03-02T09:30:00.000Z", "2026-03-02T09:00:00Z");

        assertThat(own.get("payload").get("expired").asBoolean()).isFalse();
        assertThat(superseded.get("payload").get("expired").asBoolean()).isTrue();
        assertThat(f.events(EventKind.MONITORING_COMPLETED)).singleElement().satisfies(e -> {
            assertThat(e.status()).isEqualTo("SUPERSEDED");
            assertThat(e.message()).contains("run-2").contains("run-1");
        });
    }

    @Test
    void aRerunUnderWayOnTheSameRunLogEndsMonitoring() {
        f.register("monitoring: {enabled: true, duration: 8h}\n");
        f.writeRunLog("run-1", RunLogStatus.RUNNING);

        assertThat(check("2026-03-02T09:30:00.000Z", "2026-03-02T09:00:00Z")
                        .get("payload")
                        .get("expired")
                        .asBoolean())
                .isTrue();
    }

    @Test
    void insideTheWindowItGoesOn() {
        f.register("monitoring: {enabled: true, duration: 1h}\n");

        JsonNode response = check("2026-03-02T09:30:00.000Z", "2026-03-02T09:00:00Z");

        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(response.get("payload").get("expired").asBoolean()).isFalse();
        assertThat(f.events(EventKind.MONITORING_COMPLETED)).isEmpty();
    }

    @Test
    void beforeEachWaitItRecordsUntilWhenTheDayIsWatchedAndWhenTheNextRoundComes() {
        f.register("monitoring: {enabled: true, duration: 1h}\n");

        check("2026-03-02T09:30:00.000Z", "2026-03-02T09:00:00Z");
        Map<String, Object> later = new java.util.HashMap<>(carry("2026-03-02T09:30:00.000Z"));
        later.put("monitoringExpiry", Map.of("payload", Map.of("expired", false)));
        checkCarrying("2026-03-02T09:30:00.000Z", "2026-03-02T09:00:00Z", later);

        assertThat(f.events(EventKind.MONITORING_WAITING))
                .extracting(e -> e.status())
                .containsExactlyInAnyOrder("STARTED", "WAITING");
        assertThat(f.events(EventKind.MONITORING_WAITING)).allSatisfy(e -> {
            assertThat(e.runId()).isEqualTo("run-1");
            assertThat(e.details())
                    .containsEntry("monitoringStartedAt", "2026-03-02T09:30:00.000Z")
                    .containsEntry("monitoringEndsAt", "2026-03-02T10:30:00.000Z")
                    .containsEntry("nextRoundAt", "2026-03-02T10:05:00.000Z")
                    .containsEntry("intervalSeconds", 300);
        });
    }

    @Test
    void whenTheWindowIsOverItExpires() {
        f.register("monitoring: {enabled: true, duration: 1h}\n");

        JsonNode response = check("2026-03-02T09:00:00.000Z", "2026-03-02T08:50:00Z");

        assertThat(response.get("payload").get("expired").asBoolean()).isTrue();
        assertThat(f.events(EventKind.MONITORING_COMPLETED)).hasSize(1);
        assertThat(f.events(EventKind.MONITORING_WAITING)).isEmpty();
    }

    /** The monitoring part of an execution's state (what a successor's input carries): run-1, its traits, baseline. */
    private static Map<String, Object> carry(String startedAt) {
        return Map.of(
                "resolvePipeline",
                Map.of(
                        "payload",
                        Map.of(
                                "runId",
                                "run-1",
                                "traits",
                                java.util.List.of(Map.of("traitType", "source-freshness")),
                                "monitoring",
                                Map.of("enabled", true, "intervalSeconds", 300))),
                "traitResults",
                java.util.List.of(Map.of("traitType", "source-freshness", "status", "PASS")),
                "logCompleted",
                Map.of("payload", Map.of("loggedAt", startedAt)));
    }

    /** A check as the ASL sends it: the whole state document ({@code $}) and no run in the envelope. */
    private JsonNode checkCarrying(String startedAt, String executionStart, Map<String, Object> state) {
        Map<String, Object> payload = new java.util.HashMap<>();
        payload.put("state", state);
        payload.put("executionStartTime", executionStart);
        payload.put("executionTimeoutSeconds", 14400);
        return f.call(f.request(OrchestratorAction.CHECK_MONITORING_EXPIRED, payload));
    }

    @Test
    void whenAnotherRoundWouldRunIntoTheExecutionTimeoutMonitoringIsHandedToASuccessorOnce() {
        f.register("monitoring: {enabled: true, duration: 10h}\n");
        // limit = 06:30 + 4 h − 15 min = 10:15; now 10:00 + 300 s wait + 60 s round = 10:06 fits…
        JsonNode fits =
                checkCarrying("2026-03-02T08:00:00.000Z", "2026-03-02T06:30:00Z", carry("2026-03-02T08:00:00.000Z"));
        // …but with the execution started ten minutes earlier it does not: the rest of the window goes to a successor.
        JsonNode handed =
                checkCarrying("2026-03-02T08:00:00.000Z", "2026-03-02T06:20:00Z", carry("2026-03-02T08:00:00.000Z"));
        JsonNode retried =
                checkCarrying("2026-03-02T08:00:00.000Z", "2026-03-02T06:20:00Z", carry("2026-03-02T08:00:00.000Z"));

        assertThat(fits.get("payload").get("expired").asBoolean()).isFalse();
        assertThat(fits.get("payload").get("successorExecution").asText()).isEmpty();
        assertThat(handed.get("payload").get("expired").asBoolean()).isTrue();
        String successor = handed.get("payload").get("successorExecution").asText();
        assertThat(successor).isNotEmpty();
        assertThat(retried.get("payload").get("successorExecution").asText()).isEqualTo(successor);
        // One marker, keyed by this execution, carrying what the successor's monitoring loop reads.
        assertThat(f.provider.cascade().markers(Fixture.PIPELINE, Fixture.DATE))
                .singleElement()
                .satisfies(m -> {
                    assertThat(m.source()).isEqualTo(dev.interlock.model.marker.MarkerSource.MONITORING);
                    assertThat(m.executionName()).isEqualTo(successor);
                    assertThat(m.replay()).isFalse();
                    assertThat(m.originRunId()).isEqualTo("run-1");
                    assertThat(m.carried()).containsOnlyKeys("resolvePipeline", "traitResults", "logCompleted");
                });
        // Not a cut: nothing says monitoring completed; the hand-over is said once, with the configured end.
        assertThat(f.events(EventKind.MONITORING_COMPLETED)).isEmpty();
        assertThat(f.events(EventKind.EXECUTION_HANDED_OVER))
                .singleElement()
                .satisfies(e -> assertThat(e.message())
                        .contains(successor)
                        .contains("monitoring until 2026-03-02 18:00 +00:00"));
    }

    @Test
    void aSevenDayWindowIsWatchedInItsSeventhDayAndEndsAtItsConfiguredEnd() {
        f.register("monitoring: {enabled: true, duration: 168h}\n");
        // Completed 6 days 23 hours ago: a successor execution that started half an hour ago goes on…
        f.clock.set(Instant.parse("2026-03-09T09:00:00Z"));
        JsonNode seventhDay =
                checkCarrying("2026-03-02T10:00:00.000Z", "2026-03-09T08:30:00Z", carry("2026-03-02T10:00:00.000Z"));
        // …and the one watching at the configured end stops there, saying so.
        f.clock.set(Instant.parse("2026-03-09T10:00:00Z"));
        JsonNode end =
                checkCarrying("2026-03-02T10:00:00.000Z", "2026-03-09T08:30:00Z", carry("2026-03-02T10:00:00.000Z"));

        assertThat(seventhDay.get("payload").get("expired").asBoolean()).isFalse();
        assertThat(end.get("payload").get("expired").asBoolean()).isTrue();
        assertThat(end.get("payload").get("successorExecution").asText()).isEmpty();
        assertThat(f.events(EventKind.MONITORING_COMPLETED))
                .singleElement()
                .satisfies(e -> assertThat(e.status()).isEqualTo("EXPIRED"));
        assertThat(f.events(EventKind.EXECUTION_HANDED_OVER)).isEmpty();
    }

    @Test
    void aStateWithoutWhatMonitoringWatchesIsAnErrorNamingThePathAndHandsNothingOver() {
        f.register("monitoring: {enabled: true, duration: 10h}\n");

        JsonNode response = checkCarrying(
                "2026-03-02T08:00:00.000Z",
                "2026-03-02T06:20:00Z",
                Map.of("resolvePipeline", Map.of(), "logCompleted", Map.of()));

        assertThat(response.get("result").asText()).isEqualTo("error");
        assertThat(response.get("reason").asText()).contains("state.resolvePipeline.payload.runId");
        assertThat(response.get("payload").get("expired").asBoolean()).isTrue();
        assertThat(f.provider.cascade().markers(Fixture.PIPELINE, Fixture.DATE)).isEmpty();
    }

    @Test
    void monitoringSwitchedOffEndsTheLoopSayingSo() {
        f.register("");

        assertThat(check("2026-03-02T09:59:00.000Z", "2026-03-02T09:00:00Z")
                        .get("payload")
                        .get("expired")
                        .asBoolean())
                .isTrue();
        assertThat(f.events(EventKind.MONITORING_COMPLETED))
                .singleElement()
                .satisfies(e -> assertThat(e.status()).isEqualTo("DISABLED"));
    }

    @Test
    void anUnparsableStartIsAnErrorThatEndsTheLoop() {
        f.register("monitoring: {enabled: true, duration: 1h}\n");

        JsonNode response = check("yesterday-ish", "2026-03-02T09:00:00Z");

        assertThat(response.get("result").asText()).isEqualTo("error");
        assertThat(response.get("payload").get("expired").asBoolean()).isTrue();
    }

    @Test
    void aVanishedPipelineEndsTheLoop() {
        f.clock.set(Instant.parse("2026-03-02T10:00:00Z"));

        JsonNode response = check("2026-03-02T09:59:00.000Z", "2026-03-02T09:00:00Z");

        assertThat(response.get("result").asText()).isEqualTo("error");
        assertThat(response.get("payload").get("expired").asBoolean()).isTrue();
    }
}
