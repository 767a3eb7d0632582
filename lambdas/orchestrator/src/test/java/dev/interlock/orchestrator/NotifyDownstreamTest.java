package dev.interlock.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.marker.Marker;
import dev.interlock.model.marker.MarkerSource;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
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
}
