package dev.interlock.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.marker.Marker;
import dev.interlock.model.marker.MarkerSource;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.model.sensor.SensorValue;
import dev.interlock.store.RunLogKey;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A sensor write starts the evaluations of the pipeline days that read it, once per change (in-memory store). */
class SensorArrivalsTest {

    private static final LocalDate TODAY = LocalDate.of(2026, 3, 10);
    private final ApiFixture api = new ApiFixture();

    private static String reader(String name, String sensorConfig, String extra) {
        return """
                {"name":"%s","archetype":"batch-ingestion",
                 "traits":{"upstream-dependency":{"evaluator":"builtin:sensor-threshold","config":%s},
                           "source-freshness":{"evaluator":"builtin:always-pass"},
                           "resource-availability":{"evaluator":"builtin:always-pass"}},
                 "trigger":{"type":"http","url":"https://jobs.example.com/x"}%s}""".formatted(name, sensorConfig, extra);
    }

    private List<Marker> markers(String pipeline, LocalDate date) {
        return api.store.cascade().markers(pipeline, date);
    }

    private List<Event> sensorEvents(String pipeline) {
        return api.store.events().latest(pipeline, 100).stream()
                .filter(e -> e.kind() == EventKind.SENSOR_UPDATED)
                .toList();
    }

    @Test
    void aWriteStartsEachReaderOnceWithAMarkerKeyedByTheRevision() {
        assertThat(api.call(
                                "PUT",
                                "/pipelines/gold",
                                reader(
                                        "gold",
                                        "{\"sensor\":\"landed\",\"field\":\"count\",\"op\":\"gt\",\"value\":0}",
                                        ""))
                        .status())
                .isEqualTo(201);
        // Reads sensor "orders", not "landed".
        assertThat(api.call("PUT", "/pipelines/bystander", ApiFixture.pipeline("bystander"))
                        .status())
                .isEqualTo(201);

        JsonNode first = api.call("PUT", "/sensors/landed", "{\"count\":5}").json();
        JsonNode again = api.call("PUT", "/sensors/landed", "{\"count\":5}").json();

        Marker marker = markers("gold", TODAY).getFirst();
        assertThat(markers("gold", TODAY)).hasSize(1);
        assertThat(marker.source()).isEqualTo(MarkerSource.SENSOR);
        assertThat(marker.suffix()).isEqualTo("2026-03-10#daily#landed#-#1");
        assertThat(marker.replay()).isFalse();
        assertThat(first.path("evaluations").get(0).path("executionName").asText())
                .isEqualTo(marker.executionName());
        assertThat(again.path("changed").asBoolean()).isFalse();
        assertThat(again.path("evaluations")).isEmpty();
        assertThat(markers("bystander", TODAY)).isEmpty();
        assertThat(sensorEvents("gold")).singleElement().satisfies(e -> {
            assertThat(e.status()).isEqualTo(SensorArrivals.STARTED);
            assertThat(e.details())
                    .containsEntry("sensor", "landed")
                    .containsEntry("executionName", marker.executionName());
        });

        api.call("PUT", "/sensors/landed", "{\"count\":6}");
        assertThat(markers("gold", TODAY))
                .extracting(Marker::suffix)
                .containsExactlyInAnyOrder("2026-03-10#daily#landed#-#1", "2026-03-10#daily#landed#-#2");
    }

    @Test
    void aRetriedWriteStartsWhatItsFirstAttemptCouldNot() {
        api.call(
                "PUT",
                "/pipelines/gold",
                reader("gold", "{\"sensor\":\"orders\",\"field\":\"count\",\"op\":\"gt\",\"value\":0}", ""));
        // The first attempt stored the value and then lost its connection before writing any marker.
        api.store.sensors().write(new SensorValue("orders", Map.of("count", 5), ApiFixture.NOW));

        JsonNode retried = api.call("PUT", "/sensors/orders", "{\"count\":5}").json();

        assertThat(retried.path("changed").asBoolean()).isFalse();
        assertThat(retried.path("evaluations")).hasSize(1);
        assertThat(markers("gold", TODAY)).extracting(Marker::suffix).containsExactly("2026-03-10#daily#orders#-#1");
    }

    @Test
    void aCompletedDayIsNotRerunAndTheSkipIsRecorded() {
        api.call(
                "PUT",
                "/pipelines/gold",
                reader("gold", "{\"sensor\":\"orders\",\"field\":\"count\",\"op\":\"gt\",\"value\":0}", ""));
        api.store
                .runLogs()
                .update(
                        new RunLogKey("gold", TODAY, "daily"),
                        current -> new RunLog(
                                "gold",
                                TODAY,
                                "daily",
                                RunLogStatus.COMPLETED,
                                1,
                                "r",
                                "e",
                                null,
                                null,
                                List.of(),
                                false,
                                ApiFixture.NOW,
                                ApiFixture.NOW,
                                ApiFixture.NOW));

        JsonNode answer = api.call("PUT", "/sensors/orders", "{\"count\":5}").json();

        assertThat(answer.path("evaluations")).isEmpty();
        assertThat(answer.path("skipped").get(0).path("reason").asText())
                .contains("COMPLETED")
                .contains("drift");
        assertThat(markers("gold", TODAY)).isEmpty();
        assertThat(sensorEvents("gold"))
                .singleElement()
                .satisfies(e -> assertThat(e.status()).isEqualTo(SensorArrivals.SKIPPED));
        // The same data again is no new skip to record.
        api.call("PUT", "/sensors/orders", "{\"count\":5}");
        assertThat(sensorEvents("gold")).hasSize(1);
    }

    @Test
    void readersThroughAnArchetypesDefaultsAreStartedToo() {
        String archetype =
                "{\"name\":\"landing\",\"requiredTraits\":[{\"type\":\"landed\",\"evaluator\":\"builtin:sensor-freshness\","
                        + "\"defaultConfig\":{\"sensor\":\"raw\",\"partition\":\"${date}\",\"maxAgeSeconds\":600}}],"
                        + "\"readinessRule\":{\"type\":\"all-required-pass\"}}";
        assertThat(api.call("PUT", "/archetypes/landing", archetype).status()).isEqualTo(201);
        assertThat(api.call(
                                "PUT",
                                "/pipelines/lander",
                                "{\"name\":\"lander\",\"archetype\":\"landing\","
                                        + "\"trigger\":{\"type\":\"http\",\"url\":\"https://jobs.example.com/x\"}}")
                        .status())
                .isEqualTo(201);

        JsonNode yesterday = api.call("PUT", "/sensors/raw/partitions/2026-03-09", "{\"files\":3}")
                .json();

        assertThat(yesterday.path("evaluations")).singleElement().satisfies(e -> {
            assertThat(e.path("pipelineId").asText()).isEqualTo("lander");
            assertThat(e.path("date").asText()).isEqualTo("2026-03-09");
        });
    }
}
