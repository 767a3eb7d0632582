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

    private JsonNode check(String startedAt, String executionStart) {
        return f.call(f.request(
                OrchestratorAction.CHECK_MONITORING_EXPIRED,
                "run-1",
                Map.of(
                        "monitoringStartedAt",
                        startedAt,
                        "executionStartTime",
                        executionStart,
                        "executionTimeoutSeconds",
                        14400)));
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
    void whenTheWindowIsOverItExpires() {
        f.register("monitoring: {enabled: true, duration: 1h}\n");

        JsonNode response = check("2026-03-02T09:00:00.000Z", "2026-03-02T08:50:00Z");

        assertThat(response.get("payload").get("expired").asBoolean()).isTrue();
        assertThat(f.events(EventKind.MONITORING_COMPLETED)).hasSize(1);
    }

    @Test
    void itStopsBeforeAnotherRoundWouldRunIntoTheExecutionTimeout() {
        f.register("monitoring: {enabled: true, duration: 10h}\n");
        // limit = 06:30 + 4 h − 15 min = 10:15; now 10:00 + 300 s wait + 60 s round = 10:06 fits…
        JsonNode fits = check("2026-03-02T08:00:00.000Z", "2026-03-02T06:30:00Z");
        // …but with the execution started ten minutes earlier it does not.
        JsonNode tooLate = check("2026-03-02T08:00:00.000Z", "2026-03-02T06:20:00Z");

        assertThat(fits.get("payload").get("expired").asBoolean()).isFalse();
        assertThat(tooLate.get("payload").get("expired").asBoolean()).isTrue();
        // The cut is said, with the configured end that is no longer watched.
        assertThat(f.events(EventKind.MONITORING_COMPLETED))
                .singleElement()
                .satisfies(e ->
                        assertThat(e.message()).contains("not watched further").contains("18:00:00"));
    }

    @Test
    void monitoringSwitchedOffEndsTheLoop() {
        f.register("");

        assertThat(check("2026-03-02T09:59:00.000Z", "2026-03-02T09:00:00Z")
                        .get("payload")
                        .get("expired")
                        .asBoolean())
                .isTrue();
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
