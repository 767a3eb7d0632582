package dev.interlock.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.keys.LockKey;
import dev.interlock.model.marker.Marker;
import dev.interlock.model.marker.MarkerSource;
import dev.interlock.store.PageRequest;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class LockRoutesTest {

    private static final LocalDate DATE = LocalDate.of(2026, 3, 10);
    private static final LockKey KEY = new LockKey("silver", "daily", DATE);
    private final ApiFixture api = new ApiFixture();

    @BeforeEach
    void register() {
        api.call("PUT", "/pipelines/silver", ApiFixture.PIPELINE);
        api.recording.clear();
    }

    private List<Event> events(EventKind kind) {
        return api.store.events().read("silver", PageRequest.first(100)).items().stream()
                .filter(e -> e.kind() == kind)
                .toList();
    }

    @Test
    void aHeldLockShowsItsHolderAndWhatItReported() {
        api.store.locks().acquire(KEY, "silver_2026-03-10_daily_abc", Duration.ofHours(5));
        api.store
                .locks()
                .recordEvaluating(
                        KEY,
                        "silver_2026-03-10_daily_abc",
                        ApiFixture.NOW.plusSeconds(120),
                        ApiFixture.NOW.plusSeconds(3600));

        ApiFixture.Reply reply = api.call("GET", "/pipelines/silver/locks/daily/2026-03-10");

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().get("owner").asText()).isEqualTo("silver_2026-03-10_daily_abc");
        assertThat(reply.json().get("expiresAt").asText()).isEqualTo("2026-03-10T14:00:00.000Z");
        assertThat(reply.json().get("nextRoundBy").asText()).isEqualTo("2026-03-10T09:02:00.000Z");
        assertThat(reply.json().get("absorbed").asInt()).isZero();
        assertThat(api.call("GET", "/pipelines/silver/locks/daily/2026-03-09").status())
                .as("locks are per date")
                .isEqualTo(404);
    }

    @Test
    void anOperatorReleaseIsAuditedAndHandsTheAbsorbedWorkOn() {
        api.store.locks().acquire(KEY, "silver_2026-03-10_daily_dead", Duration.ofHours(5));
        api.store.locks().recordAbsorbed(KEY, "silver_2026-03-10_daily_dead");

        ApiFixture.Reply reply = api.call(
                "DELETE",
                "/pipelines/silver/locks/daily/2026-03-10",
                null,
                null,
                Map.of("reason", "execution aborted"));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().get("released").asBoolean()).isTrue();
        assertThat(reply.json().get("previousHolder").asText()).isEqualTo("silver_2026-03-10_daily_dead");
        assertThat(reply.json().get("releasedBy").asText()).isEqualTo("api");
        assertThat(reply.json().get("absorbed").asInt()).isEqualTo(1);
        assertThat(api.store.locks().holder(KEY)).isEmpty();
        Event audit = events(EventKind.LOCK_RELEASED).getFirst();
        assertThat(audit.details())
                .containsEntry("releasedBy", "api")
                .containsEntry("previousHolder", "silver_2026-03-10_daily_dead")
                .containsEntry("reason", "execution aborted");
        Marker handedOn = api.store.cascade().markers("silver", DATE).getFirst();
        assertThat(handedOn.source()).isEqualTo(MarkerSource.DEFERRED);
        assertThat(handedOn.replay()).isFalse();
        assertThat(reply.json().get("reEmittedExecution").asText()).isEqualTo(handedOn.executionName());
        assertThat(api.recording.writes())
                .containsExactly("EventStore.append", "Locker.forceRelease", "CascadeStore.writeMarker");
    }

    @Test
    void aHolderWhoseExecutionIsStillRunningIsNotReleasedAndTheRefusalNamesIt() {
        api.store.locks().acquire(KEY, "silver_2026-03-10_daily_live", Duration.ofHours(5));
        api.executionStatus.put("silver_2026-03-10_daily_live", "RUNNING");

        ApiFixture.Reply reply = api.call("DELETE", "/pipelines/silver/locks/daily/2026-03-10");

        assertThat(reply.status()).isEqualTo(409);
        assertThat(reply.json().get("detail").asText())
                .contains("silver_2026-03-10_daily_live", "still RUNNING", "force=true");
        assertThat(api.store.locks().holder(KEY)).isPresent();
        assertThat(api.stopped).isEmpty();
        assertThat(api.recording.writes()).isEmpty();
    }

    @Test
    void aForcedReleaseStopsTheRunningHolderFirstAndIsAudited() {
        api.store.locks().acquire(KEY, "silver_2026-03-10_daily_live", Duration.ofHours(5));
        api.executionStatus.put("silver_2026-03-10_daily_live", "RUNNING");

        ApiFixture.Reply reply = api.call(
                "DELETE",
                "/pipelines/silver/locks/daily/2026-03-10",
                null,
                null,
                Map.of("force", "true", "reason", "stuck on a dead source"));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().get("stoppedExecution").asText()).isEqualTo("silver_2026-03-10_daily_live");
        assertThat(api.stopped)
                .containsExactly(
                        "silver_2026-03-10_daily_live: lock released by api with force: stuck on a dead source");
        assertThat(api.store.locks().holder(KEY)).isEmpty();
        assertThat(events(EventKind.LOCK_RELEASED).getFirst().details())
                .containsEntry("stoppedExecution", "silver_2026-03-10_daily_live")
                .containsEntry("force", true);
        assertThat(api.recording.writes()).containsExactly("EventStore.append", "Locker.releaseHeldBy");
    }

    @Test
    void forceMustBeTrueOrFalse() {
        ApiFixture.Reply reply =
                api.call("DELETE", "/pipelines/silver/locks/daily/2026-03-10", null, null, Map.of("force", "yes"));

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.errorPaths()).containsExactly("query.force");
    }

    @Test
    void aLockNobodyHoldsIsANotFoundThatWritesNothing() {
        ApiFixture.Reply reply = api.call("DELETE", "/pipelines/silver/locks/daily/2026-03-10");

        assertThat(reply.status()).isEqualTo(404);
        assertThat(reply.json().get("detail").asText())
                .isEqualTo("no lock is held for silver schedule daily on 2026-03-10; nothing to release");
        assertThat(api.recording.writes()).isEmpty();
    }

    @Test
    void badRequestsNameEveryFieldAndWriteNothing() {
        ApiFixture.Reply reply = api.call(
                "DELETE", "/pipelines/silver/locks/h%2307/2026-02-30", null, null, Map.of("reason", "x".repeat(1001)));

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.errorPaths()).containsExactly("query.reason", "path.scheduleId", "path.date");
        assertThat(api.call("DELETE", "/pipelines/Not_A_Pipeline/locks/daily/2026-03-10")
                        .errorPaths())
                .containsExactly("path.id");
        assertThat(api.call("DELETE", "/pipelines/nobody/locks/daily/2026-03-10")
                        .status())
                .isEqualTo(404);
        assertThat(api.recording.writes()).isEmpty();
    }
}
