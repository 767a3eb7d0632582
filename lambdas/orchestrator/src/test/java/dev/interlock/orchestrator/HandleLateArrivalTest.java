package dev.interlock.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.keys.LockKey;
import dev.interlock.model.marker.Marker;
import dev.interlock.model.marker.MarkerSource;
import dev.interlock.model.rerun.LateArrival;
import dev.interlock.model.rerun.Rerun;
import dev.interlock.model.rerun.RerunStatus;
import dev.interlock.store.Page;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class HandleLateArrivalTest {

    private final Fixture f = new Fixture();

    @BeforeEach
    void pipeline() {
        f.register("monitoring: {enabled: true, duration: 1h}\n");
    }

    private JsonNode handle(String runId, List<String> drifted) {
        return f.call(f.request(OrchestratorAction.HANDLE_LATE_ARRIVAL, runId, Map.of("drifted", drifted)));
    }

    @Test
    void recordsLateArrivalsARerunAndAReplayMarkerAfterReleasingTheLock() {
        f.provider
                .locks()
                .acquire(new LockKey("orders", "daily", Fixture.DATE), Fixture.EXECUTION, Duration.ofHours(5));

        JsonNode response = handle("run-1", List.of("source-freshness", "upstream-dependency"));

        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(response.get("payload").get("rerunRequested").asBoolean()).isTrue();
        assertThat(response.get("payload").get("rerunId").asText()).isEqualTo("rerun-run-1");
        assertThat(f.provider.lateArrivals().list("orders", Fixture.DATE, "daily"))
                .extracting(LateArrival::traitType)
                .containsExactly("source-freshness", "upstream-dependency");
        var rerun = f.provider.reruns().get("rerun-run-1").orElseThrow();
        assertThat(rerun.status()).isEqualTo(RerunStatus.PENDING);
        assertThat(rerun.source()).isEqualTo(MarkerSource.LATE_ARRIVAL);
        assertThat(rerun.originalRunId()).isEqualTo("run-1");
        Marker marker = f.provider.cascade().markers("orders", Fixture.DATE).get(0);
        // The rerun knows the execution its marker starts, which keeps its status true as that execution goes.
        assertThat(rerun.executionName()).isEqualTo(marker.executionName());
        assertThat(marker.source()).isEqualTo(MarkerSource.LATE_ARRIVAL);
        assertThat(marker.replay()).isTrue();
        assertThat(marker.scheduleId()).isEqualTo("daily");
        assertThat(f.provider.locks().holder(new LockKey("orders", "daily", Fixture.DATE)))
                .isEmpty();
        assertThat(f.events(EventKind.RERUN_REQUESTED)).hasSize(1);
        assertThat(f.events(EventKind.LATE_ARRIVAL_DETECTED)).hasSize(2);
    }

    @Test
    void aRepeatWritesNothingNew() {
        JsonNode first = handle("run-1", List.of("source-freshness"));
        f.clock.advance(Duration.ofSeconds(3));

        JsonNode repeat = handle("run-1", List.of("source-freshness"));

        assertThat(repeat.get("payload")).isEqualTo(first.get("payload"));
        assertThat(f.provider.lateArrivals().list("orders", Fixture.DATE, "daily"))
                .hasSize(1);
        assertThat(f.provider.cascade().markers("orders", Fixture.DATE)).hasSize(1);
        assertThat(f.provider.reruns().count("orders", Fixture.DATE, "daily")).isEqualTo(1);
    }

    @Test
    void whenTheDaysRerunBudgetIsSpentNoMarkerIsWritten() {
        handle("run-1", List.of("source-freshness"));
        f.clock.advance(Duration.ofMinutes(30));
        handle("run-2", List.of("source-freshness"));
        f.clock.advance(Duration.ofMinutes(30));

        JsonNode third = handle("run-3", List.of("source-freshness"));

        assertThat(third.get("result").asText()).isEqualTo("skip");
        assertThat(third.get("reason").asText()).isEqualTo("rerun budget spent (2 of 2 reruns today)");
        assertThat(third.get("payload").get("rerunRequested").asBoolean()).isFalse();
        var refused = f.provider.reruns().get("rerun-run-3").orElseThrow();
        assertThat(refused.status()).isEqualTo(RerunStatus.SKIPPED);
        assertThat(refused.statusReason()).isEqualTo("rerun budget spent (2 of 2 reruns today)");
        assertThat(refused.executionName()).isNull();
        assertThat(f.events(EventKind.RERUN_REQUESTED))
                .extracting(e -> e.status())
                .containsExactly("PENDING", "PENDING", "SKIPPED");
        assertThat(f.provider.cascade().markers("orders", Fixture.DATE))
                .extracting(Marker::suffix)
                .containsExactlyInAnyOrder("rerun-run-1", "rerun-run-2");
        assertThat(f.provider.lateArrivals().list("orders", Fixture.DATE, "daily"))
                .hasSize(3);
    }

    @Test
    void aRepeatOfARefusedRerunIsStillASkip() {
        handle("run-1", List.of("a"));
        handle("run-2", List.of("a"));
        handle("run-3", List.of("a"));

        JsonNode repeat = handle("run-3", List.of("a"));

        assertThat(repeat.get("result").asText()).isEqualTo("skip");
        assertThat(repeat.get("payload").get("rerunRequested").asBoolean()).isFalse();
        assertThat(f.provider.cascade().markers("orders", Fixture.DATE)).hasSize(2);
        assertThat(f.events(EventKind.RERUN_REQUESTED)).hasSize(3);
    }

    @Test
    void apiRerunsAndLateArrivalsShareTheDaysBudgetThroughOneAtomicGate() {
        // The operator's reruns took the whole budget (2) before the drift was handled.
        for (String id : List.of("api-1", "api-2")) {
            Marker marker = Marker.rerun("orders", "daily", Fixture.DATE, MarkerSource.RERUN, id, null, Fixture.T0);
            assertThat(f.provider
                            .acceptRerun(
                                    Rerun.requested(
                                            id,
                                            "orders",
                                            "daily",
                                            Fixture.DATE,
                                            MarkerSource.MANUAL,
                                            null,
                                            "backfill",
                                            null,
                                            marker.executionName(),
                                            Fixture.T0,
                                            Map.of()),
                                    marker,
                                    requested(id),
                                    2)
                            .accepted())
                    .isTrue();
        }

        JsonNode response = handle("run-1", List.of("source-freshness"));

        assertThat(response.get("result").asText()).isEqualTo("skip");
        assertThat(f.provider.reruns().get("rerun-run-1").orElseThrow().status())
                .isEqualTo(RerunStatus.SKIPPED);
        assertThat(f.provider.cascade().markers("orders", Fixture.DATE))
                .extracting(Marker::suffix)
                .containsExactlyInAnyOrder("api-1", "api-2");
    }

    @Test
    void lateArrivalsRacingApiRerunsNeverTakeTheDayOverBudget() throws Exception {
        int racers = 8;
        ExecutorService pool = Executors.newFixedThreadPool(racers);
        CyclicBarrier start = new CyclicBarrier(racers);
        List<Future<?>> done = new ArrayList<>();
        for (int i = 0; i < racers; i++) {
            int n = i;
            done.add(pool.submit(() -> {
                start.await();
                if (n % 2 == 0) {
                    return handle("run-" + n, List.of("source-freshness"));
                }
                String id = "api-" + n;
                Marker marker = Marker.rerun("orders", "daily", Fixture.DATE, MarkerSource.RERUN, id, null, Fixture.T0);
                return f.provider.acceptRerun(
                        Rerun.requested(
                                id,
                                "orders",
                                "daily",
                                Fixture.DATE,
                                MarkerSource.MANUAL,
                                null,
                                "backfill",
                                null,
                                marker.executionName(),
                                Fixture.T0,
                                Map.of()),
                        marker,
                        requested(id),
                        2);
            }));
        }
        for (Future<?> future : done) {
            future.get(30, TimeUnit.SECONDS);
        }
        pool.shutdown();

        assertThat(f.provider.cascade().markers("orders", Fixture.DATE)).hasSize(2);
        assertThat(Page.all(100, p -> f.provider.reruns().listByPipeline("orders", p)))
                .filteredOn(r -> r.status() != RerunStatus.SKIPPED)
                .hasSize(2);
    }

    private static Event requested(String rerunId) {
        return new Event(
                EventKind.RERUN_REQUESTED,
                "orders",
                "daily",
                Fixture.DATE,
                null,
                null,
                "PENDING",
                "backfill",
                Map.of("rerunId", rerunId),
                Fixture.T0);
    }

    @Test
    void withoutARunIdItIsAnError() {
        JsonNode response = f.call(f.request(OrchestratorAction.HANDLE_LATE_ARRIVAL, Map.of("drifted", List.of("a"))));

        assertThat(response.get("result").asText()).isEqualTo("error");
        assertThat(response.get("payload").get("rerunRequested").asBoolean()).isFalse();
        assertThat(response.get("payload").get("rerunId").asText()).isEmpty();
    }
}
