package dev.interlock.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.marker.Marker;
import dev.interlock.model.marker.MarkerSource;
import dev.interlock.model.rerun.Rerun;
import dev.interlock.model.run.RetryAttempt;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.store.PageRequest;
import dev.interlock.store.RunLogKey;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class NotifyDownstreamTest {

    private final Fixture f = new Fixture();

    @BeforeEach
    void cascade() {
        f.register("");
        f.register(
                "gold",
                "traits:\n  upstream-dependency:\n    evaluator: builtin:upstream-run-log\n    config: {upstreamPipeline: orders}\n");
        f.register("platinum", "traits:\n  upstream-dependency:\n    config: {upstreamPipeline: orders}\n");
        f.register("unrelated", "");
    }

    private JsonNode notify(String runId) {
        return f.call(f.request(OrchestratorAction.NOTIFY_DOWNSTREAM, runId, Map.of()));
    }

    @Test
    void writesOneCascadeMarkerPerDownstreamForTheSameScheduleAndDate() {
        String runId = f.resolve();
        f.call(f.request(OrchestratorAction.LOG_RESULT, runId, Map.of("status", "COMPLETED")));

        JsonNode response = notify(runId);

        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(response.get("payload").get("notified").toString()).isEqualTo("[\"gold/daily\",\"platinum/daily\"]");
        Marker marker = f.provider.cascade().markers("gold", Fixture.DATE).get(0);
        assertThat(marker.source()).isEqualTo(MarkerSource.CASCADE);
        assertThat(marker.scheduleId()).isEqualTo("daily");
        assertThat(marker.date()).isEqualTo(Fixture.DATE);
        assertThat(marker.origin()).isEqualTo("orders");
        assertThat(marker.originRunId()).isEqualTo(runId);
        assertThat(marker.replay()).isFalse();
        assertThat(f.provider.cascade().markers("unrelated", Fixture.DATE)).isEmpty();
        assertThat(f.events(EventKind.CASCADE_NOTIFIED)).hasSize(1);
    }

    @Test
    void aPipelineWithoutDownstreamsOnlyLooksThemUp() {
        // Most pipelines end a cascade: their run log (read only to mark a reprocessed day's markers) is not needed.
        CountingProvider counting = CountingProvider.around(f.provider);
        Map<String, Object> request = f.request(OrchestratorAction.NOTIFY_DOWNSTREAM, "run-1", Map.of());
        request.put("pipelineId", "unrelated");

        List<String> calls = counting.storeCallsDuring(() -> assertThat(
                        f.callOver(counting.provider(), request).get("payload").get("notified"))
                .isEmpty());

        assertThat(calls).containsExactly("cascade.downstreamOf");
    }

    @Test
    void aRepeatWritesNoSecondMarker() {
        String runId = f.resolve();

        JsonNode first = notify(runId);
        JsonNode repeat = notify(runId);

        assertThat(repeat.get("payload")).isEqualTo(first.get("payload"));
        assertThat(f.provider.cascade().markers("gold", Fixture.DATE)).hasSize(1);
        assertThat(f.provider.cascade().markers("platinum", Fixture.DATE)).hasSize(1);
        assertThat(f.events(EventKind.CASCADE_NOTIFIED)).hasSize(1);
    }

    @Test
    void anHourlyScheduleCascadesToTheSameHourOnly() {
        var request = f.request(OrchestratorAction.NOTIFY_DOWNSTREAM, "run-h06", Map.of());
        request.put("scheduleId", "h06");

        JsonNode response = f.call(request);

        assertThat(response.get("payload").get("notified").toString()).isEqualTo("[\"gold/h06\",\"platinum/h06\"]");
        assertThat(f.provider.cascade().markers("gold", Fixture.DATE))
                .extracting(Marker::scheduleId)
                .containsExactly("h06");
    }

    @Test
    void aReprocessedDayCascadesAsAReplay() {
        String first = f.resolve();
        f.call(f.request(OrchestratorAction.LOG_RESULT, first, Map.of("status", "COMPLETED")));
        notify(first);
        var replay = f.request(OrchestratorAction.RESOLVE_PIPELINE);
        replay.put("executionName", "orders_2026-03-02_daily_replay01");
        String second = f.call(replay).get("payload").get("runId").asText();
        f.call(f.request(OrchestratorAction.LOG_RESULT, second, Map.of("status", "COMPLETED")));

        notify(second);

        assertThat(f.provider.cascade().markers("gold", Fixture.DATE))
                .extracting(Marker::replay)
                .containsExactlyInAnyOrder(false, true);
    }

    @Test
    void noDownstreamsIsAnEmptyList() {
        var request = f.request(OrchestratorAction.NOTIFY_DOWNSTREAM, "run-1", Map.of());
        request.put("pipelineId", "unrelated");

        JsonNode response = f.call(request);

        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(response.get("payload").get("notified").isArray()).isTrue();
        assertThat(response.get("payload").get("notified")).isEmpty();
    }

    @Test
    void withoutARunIdItIsAnError() {
        JsonNode response = f.call(f.request(OrchestratorAction.NOTIFY_DOWNSTREAM, Map.of()));

        assertThat(response.get("result").asText()).isEqualTo("error");
        assertThat(response.get("payload").get("notified")).isEmpty();
    }

    /**
     * A downstream that rolls the upstream's hours up: notified on its own (daily) window for any hour, and once that
     * window COMPLETED, an hour that completes (again) follows the rollup's onUpstreamRerun policy instead of a marker.
     */
    @Nested
    class Rollups {

        private static final String ROLLUP = "roll";
        private static final String HOUR = "hourly.0500";

        @BeforeEach
        void hourlyUpstream() {
            f.register("schedules: [{name: hourly, cron: '0 * * * *', timezone: UTC}]\n");
        }

        private void rollup(String rollup) {
            f.register(
                    ROLLUP,
                    "traits:\n  upstream-dependency:\n    evaluator: builtin:upstream-run-log\n"
                            + "    config: {upstreamPipeline: orders, rollup: " + rollup + "}\n");
        }

        private JsonNode notifyHour(String runId) {
            Map<String, Object> request = f.request(OrchestratorAction.NOTIFY_DOWNSTREAM, runId, Map.of());
            request.put("scheduleId", HOUR);
            return f.call(request);
        }

        /** The upstream hour's run log: COMPLETED by {@code runId}, after an earlier run {@code earlier} completed it. */
        private void hourCompletedBefore(String earlier, String runId) {
            List<RetryAttempt> history = List.of(
                    new RetryAttempt(1, RunLogStatus.COMPLETED, earlier, null, null, Fixture.T0, Fixture.T0),
                    new RetryAttempt(2, RunLogStatus.COMPLETED, runId, null, null, Fixture.T0, Fixture.T0));
            f.provider
                    .runLogs()
                    .update(
                            new RunLogKey(Fixture.PIPELINE, Fixture.DATE, HOUR),
                            current -> new RunLog(
                                    Fixture.PIPELINE,
                                    Fixture.DATE,
                                    HOUR,
                                    RunLogStatus.COMPLETED,
                                    2,
                                    runId,
                                    null,
                                    null,
                                    null,
                                    history,
                                    false,
                                    Fixture.T0,
                                    Fixture.T0,
                                    Fixture.T0,
                                    List.of()));
        }

        private void rollupCompleted() {
            f.provider
                    .runLogs()
                    .update(
                            new RunLogKey(ROLLUP, Fixture.DATE, "daily"),
                            current -> new RunLog(
                                    ROLLUP,
                                    Fixture.DATE,
                                    "daily",
                                    RunLogStatus.COMPLETED,
                                    1,
                                    "roll-run-1",
                                    null,
                                    null,
                                    null,
                                    List.of(),
                                    false,
                                    Fixture.T0,
                                    Fixture.T0,
                                    Fixture.T0,
                                    List.of()));
        }

        private List<Event> upstreamReruns() {
            return f.events(ROLLUP).stream()
                    .filter(e -> e.kind() == EventKind.UPSTREAM_RERUN)
                    .toList();
        }

        private List<Rerun> reruns() {
            return f.provider
                    .reruns()
                    .listByPipeline(ROLLUP, PageRequest.first(100))
                    .items();
        }

        @Test
        void aRollupNotYetCompletedGetsACascadeMarkerForItsDailyWindowNotTheHour() {
            rollup("true");

            JsonNode response = notifyHour("run-h05");

            assertThat(response.get("result").asText()).isEqualTo("proceed");
            assertThat(response.get("payload").get("notified").toString()).contains("\"roll/daily\"");
            Marker marker = f.provider.cascade().markers(ROLLUP, Fixture.DATE).getFirst();
            assertThat(f.provider.cascade().markers(ROLLUP, Fixture.DATE)).hasSize(1);
            assertThat(marker.scheduleId()).isEqualTo("daily");
            assertThat(marker.source()).isEqualTo(MarkerSource.CASCADE);
            assertThat(marker.origin()).isEqualTo("orders");
            assertThat(marker.originRunId()).isEqualTo("run-h05");
            assertThat(marker.replay()).isFalse();
            // A plain downstream still gets the hour itself.
            assertThat(f.provider.cascade().markers("gold", Fixture.DATE))
                    .extracting(Marker::scheduleId)
                    .containsExactly(HOUR);
            assertThat(upstreamReruns()).isEmpty();
            assertThat(f.alerts.of(AlertKind.UPSTREAM_RERUN)).isEmpty();
        }

        @Test
        void aReprocessedHourIsNoReplayForARollupThatHasNotCompleted() {
            rollup("{onUpstreamRerun: rerun}");
            hourCompletedBefore("run-h05-first", "run-h05-again");

            notifyHour("run-h05-again");

            assertThat(f.provider.cascade().markers(ROLLUP, Fixture.DATE))
                    .singleElement()
                    .satisfies(m -> {
                        assertThat(m.scheduleId()).isEqualTo("daily");
                        assertThat(m.replay())
                                .as("it waits for the hour anyway")
                                .isFalse();
                    });
            assertThat(f.provider.cascade().markers("gold", Fixture.DATE))
                    .extracting(Marker::replay)
                    .as("a plain downstream's output is stale")
                    .containsExactly(true);
            assertThat(reruns()).isEmpty();
        }

        @Test
        void eachHourIsOneMarkerForTheSameDailyWindow() {
            rollup("true");

            notifyHour("run-h05");
            Map<String, Object> h06 = f.request(OrchestratorAction.NOTIFY_DOWNSTREAM, "run-h06", Map.of());
            h06.put("scheduleId", "hourly.0600");
            f.call(h06);
            notifyHour("run-h05");

            assertThat(f.provider.cascade().markers(ROLLUP, Fixture.DATE))
                    .extracting(m -> m.scheduleId() + "/" + m.originRunId())
                    .containsExactlyInAnyOrder("daily/run-h05", "daily/run-h06");
        }

        @Test
        void onceCompletedTheAlertPolicyRecordsAnEventAndAlertsWithoutAMarker() {
            rollup("true");
            rollupCompleted();

            JsonNode response = notifyHour("run-h05");

            assertThat(response.get("result").asText()).isEqualTo("proceed");
            assertThat(response.get("payload").get("notified").toString()).contains("\"roll/daily\"");
            assertThat(f.provider.cascade().markers(ROLLUP, Fixture.DATE)).isEmpty();
            Event event = assertThat(upstreamReruns()).singleElement().actual();
            assertThat(event.status()).isEqualTo("ALERT");
            assertThat(event.pipelineId()).isEqualTo(ROLLUP);
            assertThat(event.scheduleId()).isEqualTo("daily");
            assertThat(event.date()).isEqualTo(Fixture.DATE);
            assertThat(event.message())
                    .isEqualTo("upstream orders hourly.0500 of 2026-03-02 came in after this rollup completed; "
                            + "its output may be stale (onUpstreamRerun: alert)");
            assertThat(event.details())
                    .containsEntry("upstreamPipeline", "orders")
                    .containsEntry("upstreamScheduleId", HOUR)
                    .containsEntry("upstreamRunId", "run-h05")
                    .containsEntry("upstreamReprocessed", false)
                    .containsEntry("onUpstreamRerun", "alert");
            assertThat(f.alerts.of(AlertKind.UPSTREAM_RERUN)).singleElement().satisfies(a -> {
                assertThat(a.level()).isEqualTo(AlertLevel.WARNING);
                assertThat(a.pipelineId()).isEqualTo(ROLLUP);
                assertThat(a.scheduleId()).isEqualTo("daily");
                assertThat(a.message()).startsWith("Pipeline roll: upstream orders hourly.0500");
            });
            assertThat(reruns()).isEmpty();
        }

        @Test
        void aReprocessedHourSaysSoInTheEvent() {
            rollup("{onUpstreamRerun: alert}");
            rollupCompleted();
            hourCompletedBefore("run-h05-first", "run-h05-again");

            notifyHour("run-h05-again");

            assertThat(upstreamReruns()).singleElement().satisfies(e -> {
                assertThat(e.message()).contains("hourly.0500 of 2026-03-02 was processed again");
                assertThat(e.details()).containsEntry("upstreamReprocessed", true);
            });
        }

        @Test
        void onceCompletedTheIgnorePolicyOnlyRecordsTheEvent() {
            rollup("{onUpstreamRerun: ignore}");
            rollupCompleted();

            notifyHour("run-h05");

            assertThat(upstreamReruns()).singleElement().satisfies(e -> {
                assertThat(e.status()).isEqualTo("IGNORE");
                assertThat(e.message()).endsWith("; onUpstreamRerun: ignore");
            });
            assertThat(f.alerts.of(AlertKind.UPSTREAM_RERUN)).isEmpty();
            assertThat(f.provider.cascade().markers(ROLLUP, Fixture.DATE)).isEmpty();
            assertThat(reruns()).isEmpty();
        }

        @Test
        void onceCompletedTheRerunPolicyAsksForOneRerunWithItsReplayMarker() {
            rollup("{onUpstreamRerun: rerun}");
            rollupCompleted();

            notifyHour("run-h05");
            notifyHour("run-h05");

            Rerun rerun = assertThat(reruns()).singleElement().actual();
            assertThat(rerun.pipelineId()).isEqualTo(ROLLUP);
            assertThat(rerun.scheduleId()).isEqualTo("daily");
            assertThat(rerun.date()).isEqualTo(Fixture.DATE);
            assertThat(rerun.source()).isEqualTo(MarkerSource.CASCADE);
            assertThat(rerun.reason()).endsWith("came in after this rollup completed; onUpstreamRerun: rerun");
            assertThat(rerun.metadata()).containsEntry("upstreamRunId", "run-h05");
            Marker marker = assertThat(f.provider.cascade().markers(ROLLUP, Fixture.DATE))
                    .singleElement()
                    .actual();
            assertThat(marker.scheduleId()).isEqualTo("daily");
            assertThat(marker.replay()).isTrue();
            assertThat(marker.executionName()).isEqualTo(rerun.executionName());
            assertThat(upstreamReruns()).singleElement().satisfies(e -> {
                assertThat(e.status()).isEqualTo("RERUN");
                assertThat(e.details()).containsEntry("rerunId", rerun.rerunId());
            });
            assertThat(f.alerts.of(AlertKind.UPSTREAM_RERUN)).isEmpty();
        }

        @Test
        void aRepeatedCallForTheSameUpstreamRunAsksNothingTwice() {
            rollup("{onUpstreamRerun: rerun}");
            rollupCompleted();
            notifyHour("run-h05");
            CountingProvider counting = CountingProvider.around(f.provider);
            Map<String, Object> repeat = f.request(OrchestratorAction.NOTIFY_DOWNSTREAM, "run-h05", Map.of());
            repeat.put("scheduleId", HOUR);

            List<String> calls = counting.storeCallsDuring(() -> f.callOver(counting.provider(), repeat));

            assertThat(calls)
                    .as("the rerun is looked up and found: no event")
                    .containsSubsequence("runLogs.get", "reruns.get")
                    .doesNotContain("events.append");
            assertThat(calls)
                    .as("the plain downstreams' markers (gold, platinum) are written again; none for the rollup")
                    .filteredOn("cascade.writeMarker"::equals)
                    .hasSize(2);
            assertThat(f.logText())
                    .as("no second acceptRerun (which refuses an existing rerun id)")
                    .doesNotContain("cascade marker not written");
            assertThat(reruns()).hasSize(1);
            assertThat(upstreamReruns()).hasSize(1);
        }

        @Test
        void aRerunBeyondTheDaysBudgetIsRefusedAndAlertedInstead() {
            rollup("{onUpstreamRerun: rerun}");
            rollupCompleted();

            // The budget is two reruns a day (Fixture settings): a third upstream run of an hour is refused.
            notifyHour("run-h05-a");
            notifyHour("run-h05-b");
            notifyHour("run-h05-c");

            assertThat(reruns()).hasSize(2);
            assertThat(upstreamReruns()).extracting(Event::status).containsExactlyInAnyOrder("RERUN", "RERUN", "ALERT");
            assertThat(upstreamReruns())
                    .filteredOn(e -> e.status().equals("ALERT"))
                    .singleElement()
                    .satisfies(e -> assertThat(e.message())
                            .endsWith("onUpstreamRerun: rerun refused (rerun budget spent, 2 reruns)"));
            assertThat(f.alerts.of(AlertKind.UPSTREAM_RERUN))
                    .singleElement()
                    .satisfies(a -> assertThat(a.message()).contains("rerun refused"));
        }
    }
}
