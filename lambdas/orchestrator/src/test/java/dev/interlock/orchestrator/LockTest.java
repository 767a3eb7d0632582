package dev.interlock.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.keys.LockKey;
import dev.interlock.model.marker.Marker;
import dev.interlock.model.marker.MarkerSource;
import dev.interlock.store.LockHolder;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LockTest {

    private final Fixture f = new Fixture();
    private final LockKey key = new LockKey("orders", "daily", Fixture.DATE);

    private JsonNode acquire(String owner) {
        return acquire(owner, false, Fixture.T0);
    }

    private JsonNode acquire(String owner, boolean replay, Instant executionStart) {
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("owner", owner);
        payload.put("executionTimeoutSeconds", 14400);
        payload.put("executionStartTime", InterlockJson.timestamp(executionStart));
        payload.put("replay", replay);
        Map<String, Object> request = f.request(OrchestratorAction.ACQUIRE_LOCK, payload);
        request.put("executionName", owner);
        return f.call(request);
    }

    private JsonNode release(String owner) {
        return f.call(f.request(OrchestratorAction.RELEASE_LOCK, Map.of("owner", owner)));
    }

    private String holder() {
        return f.provider.locks().holder(key).map(LockHolder::owner).orElse(null);
    }

    /** The holder reports a NOT READY round: its next round starts within two minutes, its deadline in an hour. */
    private void holderWaitsOnNotReady(String owner) {
        f.provider
                .locks()
                .recordEvaluating(
                        key,
                        owner,
                        f.clock.instant().plusSeconds(120),
                        f.clock.instant().plusSeconds(3600));
    }

    @Test
    void aFreeLockIsAcquiredWithATtlLongerThanTheExecutionTimeout() {
        JsonNode response = acquire("exec-a");

        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(response.get("payload").get("acquired").asBoolean()).isTrue();
        assertThat(response.get("payload").get("ttlSeconds").asLong()).isEqualTo(14400 + 1800);
        assertThat(response.get("payload").get("absorbed").asBoolean()).isFalse();
        assertThat(response.get("payload").get("waitSeconds").asLong()).isZero();
        assertThat(holder()).isEqualTo("exec-a");
    }

    @Test
    void locksOfOtherDatesAndSchedulesNeverBlockEachOther() {
        acquire("exec-a");
        Map<String, Object> yesterday = f.request(
                OrchestratorAction.ACQUIRE_LOCK,
                Map.of(
                        "owner",
                        "exec-b",
                        "executionTimeoutSeconds",
                        14400,
                        "executionStartTime",
                        InterlockJson.timestamp(Fixture.T0)));
        yesterday.put("date", Fixture.DATE.minusDays(1).toString());
        Map<String, Object> hourly = f.request(
                OrchestratorAction.ACQUIRE_LOCK,
                Map.of(
                        "owner",
                        "exec-c",
                        "executionTimeoutSeconds",
                        14400,
                        "executionStartTime",
                        InterlockJson.timestamp(Fixture.T0)));
        hourly.put("scheduleId", "h07");

        assertThat(f.call(yesterday).get("result").asText()).isEqualTo("proceed");
        assertThat(f.call(hourly).get("result").asText()).isEqualTo("proceed");
        assertThat(holder()).isEqualTo("exec-a");
    }

    @Test
    void aMarkerMeetingAHolderThatWaitsOnNotReadyIsAbsorbedAndCounted() {
        acquire("exec-a");
        holderWaitsOnNotReady("exec-a");

        JsonNode response = acquire("exec-b");

        assertThat(response.get("result").asText()).isEqualTo("skip");
        assertThat(response.get("payload").get("absorbed").asBoolean()).isTrue();
        assertThat(response.get("payload").get("waitSeconds").asLong()).isZero();
        assertThat(response.get("reason").asText()).startsWith("absorbed by exec-a: it is waiting on NOT READY");
        assertThat(f.provider.locks().holder(key).orElseThrow().absorbed()).isEqualTo(1);
        Event event = f.events(EventKind.MARKER_ABSORBED).getFirst();
        assertThat(event.details()).containsEntry("holder", "exec-a").containsEntry("executionName", "exec-b");
    }

    @Test
    void aReplayIsNeverAbsorbedItWaitsForTheHolder() {
        acquire("exec-a");
        holderWaitsOnNotReady("exec-a");

        JsonNode response = acquire("exec-b", true, Fixture.T0);

        assertThat(response.get("result").asText()).isEqualTo("skip");
        assertThat(response.get("payload").get("absorbed").asBoolean()).isFalse();
        assertThat(response.get("payload").get("waitSeconds").asLong()).isEqualTo(30);
        assertThat(f.events(EventKind.MARKER_DEFERRED))
                .singleElement()
                .satisfies(e ->
                        assertThat(e.details()).containsEntry("replay", true).containsEntry("waitSeconds", 30));
    }

    @Test
    void aHolderWhoseRoundIsOverdueMayBeDeadSoTheMarkerWaitsInsteadOfBeingAbsorbed() {
        acquire("exec-a");
        holderWaitsOnNotReady("exec-a");
        f.clock.advance(Duration.ofSeconds(120));

        JsonNode response = acquire("exec-b", false, f.clock.instant());

        assertThat(response.get("payload").get("absorbed").asBoolean()).isFalse();
        assertThat(response.get("payload").get("waitSeconds").asLong()).isEqualTo(30);
    }

    @Test
    void aHolderWhoseNextRoundIsItsLastDoesNotAbsorb() {
        acquire("exec-a");
        f.provider
                .locks()
                .recordEvaluating(
                        key,
                        "exec-a",
                        f.clock.instant().plusSeconds(120),
                        f.clock.instant().plusSeconds(60));

        assertThat(acquire("exec-b").get("payload").get("absorbed").asBoolean()).isFalse();
    }

    @Test
    void aMarkerMeetingAHolderPastEvaluationWaitsLongerEachTimeThenHandsOver() {
        acquire("exec-a");
        Instant start = f.clock.instant();
        assertThat(acquire("exec-b", false, start)
                        .get("payload")
                        .get("waitSeconds")
                        .asLong())
                .isEqualTo(30);
        f.clock.advance(Duration.ofSeconds(100));
        assertThat(acquire("exec-b", false, start)
                        .get("payload")
                        .get("waitSeconds")
                        .asLong())
                .isEqualTo(100);
        f.clock.advance(Duration.ofSeconds(1000));
        assertThat(acquire("exec-b", false, start)
                        .get("payload")
                        .get("waitSeconds")
                        .asLong())
                .as("at most 5 min")
                .isEqualTo(300);
        f.clock.advance(Duration.ofSeconds(600));
        // 1700 s waited: another 300 s would pass the 30 min wait budget.

        JsonNode handedOver = acquire("exec-b", true, start);

        assertThat(handedOver.get("result").asText()).isEqualTo("skip");
        assertThat(handedOver.get("payload").get("waitSeconds").asLong()).isZero();
        assertThat(handedOver.get("payload").get("absorbed").asBoolean()).isFalse();
        List<Marker> markers = f.provider.cascade().markers("orders", Fixture.DATE);
        assertThat(markers).singleElement().satisfies(m -> {
            assertThat(m.source()).isEqualTo(MarkerSource.DEFERRED);
            assertThat(m.replay()).as("the successor carries the replay").isTrue();
            assertThat(m.origin()).isEqualTo("exec-b");
        });
        Event event = f.events(EventKind.EXECUTION_HANDED_OVER).getFirst();
        assertThat(event.details())
                .containsEntry("holder", "exec-a")
                .containsEntry("successorExecution", markers.getFirst().executionName());
        assertThat(f.events(EventKind.MARKER_DEFERRED)).hasSize(3);

        acquire("exec-b", true, start);
        assertThat(f.provider.cascade().markers("orders", Fixture.DATE))
                .as("a repeated hand-over is one marker")
                .hasSize(1);
        assertThat(holder()).isEqualTo("exec-a");
    }

    @Test
    void waitingWithoutAnExecutionStartHasNoBoundSoItIsAnError() {
        acquire("exec-a");
        Map<String, Object> request =
                f.request(OrchestratorAction.ACQUIRE_LOCK, Map.of("owner", "exec-b", "executionTimeoutSeconds", 14400));

        JsonNode response = f.call(request);

        assertThat(response.get("result").asText()).isEqualTo("error");
        assertThat(response.get("reason").asText()).contains("executionStartTime");
    }

    @Test
    void anExpiredLockIsTakenOver() {
        acquire("exec-a");
        f.clock.advance(Duration.ofSeconds(14400 + 1800));

        JsonNode response = acquire("exec-b", false, f.clock.instant());

        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(holder()).isEqualTo("exec-b");
    }

    @Test
    void aLockIsNotExpiredJustBeforeItsTtl() {
        acquire("exec-a");
        f.clock.advance(Duration.ofSeconds(14400 + 1799));

        assertThat(acquire("exec-b", false, f.clock.instant()).get("result").asText())
                .isEqualTo("skip");
    }

    @Test
    void theSameOwnerReacquiresAndExtends() {
        acquire("exec-a");
        f.clock.advance(Duration.ofSeconds(10000));

        JsonNode again = acquire("exec-a");
        f.clock.advance(Duration.ofSeconds(10000)); // past the first TTL, inside the extended one

        assertThat(again.get("result").asText()).isEqualTo("proceed");
        assertThat(acquire("exec-b", false, f.clock.instant()).get("result").asText())
                .isEqualTo("skip");
    }

    @Test
    void theConfiguredTimeoutWinsWhenTheRequestAsksForLess() {
        JsonNode response = f.call(
                f.request(OrchestratorAction.ACQUIRE_LOCK, Map.of("owner", "exec-a", "executionTimeoutSeconds", 60)));

        assertThat(response.get("payload").get("ttlSeconds").asLong()).isEqualTo(14400 + 1800);
    }

    @Test
    void theOwnerDefaultsToTheExecutionName() {
        JsonNode response =
                f.call(f.request(OrchestratorAction.ACQUIRE_LOCK, Map.of("executionTimeoutSeconds", 14400)));

        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(holder()).isEqualTo(Fixture.EXECUTION);
    }

    @Test
    void withoutAnyOwnerItIsAnErrorThatRaisesAGateErrorAlertAndEvent() {
        var request = f.request(OrchestratorAction.ACQUIRE_LOCK, Map.of());
        request.remove("executionName");

        JsonNode response = f.call(request);

        assertThat(response.get("result").asText()).isEqualTo("error");
        assertThat(response.get("payload").get("acquired").asBoolean()).isFalse();
        assertThat(f.events(EventKind.GATE_ERROR))
                .singleElement()
                .satisfies(
                        e -> assertThat(e.details()).containsEntry("gate", OrchestratorAction.ACQUIRE_LOCK.wireName()));
        assertThat(f.alerts.kinds()).containsExactly("GATE_ERROR");
    }

    @Test
    void onlyTheOwnerReleases() {
        acquire("exec-a");

        JsonNode byOther = release("exec-b");
        JsonNode byOwner = release("exec-a");

        assertThat(byOther.get("result").asText()).isEqualTo("proceed");
        assertThat(byOther.get("payload").get("released").asBoolean()).isFalse();
        assertThat(byOwner.get("payload").get("released").asBoolean()).isTrue();
        assertThat(holder()).isNull();
    }

    @Test
    void releasingAFreeLockIsAHarmlessProceed() {
        JsonNode response = release("exec-a");

        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(response.get("payload").get("released").asBoolean()).isFalse();
    }
}
