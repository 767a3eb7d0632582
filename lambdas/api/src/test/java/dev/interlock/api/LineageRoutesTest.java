package dev.interlock.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.lineage.LineageSubject;
import dev.interlock.model.marker.Marker;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code POST /lineage} on the in-memory store: what a run event keeps, starts and skips, and what it refuses. */
class LineageRoutesTest {

    private static final LocalDate TODAY = LocalDate.of(2026, 3, 10);
    private static final String RUN = "0193a2e4-7c1d-7f00-8d3e-5b9f2a6c4e11";
    private final ApiFixture api = new ApiFixture();

    private static String gated(String name, String config) {
        return """
                {"name":"%s","archetype":"batch-ingestion",
                 "traits":{"upstream-dependency":{"evaluator":"builtin:lineage-complete","config":%s},
                           "source-freshness":{"evaluator":"builtin:always-pass"},
                           "resource-availability":{"evaluator":"builtin:always-pass"}},
                 "trigger":{"type":"http","url":"https://jobs.example.com/x"}}""".formatted(name, config);
    }

    private static String event(String type, String time) {
        return """
                {"eventType":"%s","eventTime":"%s","producer":"https://github.com/OpenLineage/OpenLineage/tree/1.24.2/integration/spark",
                 "run":{"runId":"%s","facets":{"spark_version":{"spark-version":"3.5.1"}}},
                 "job":{"namespace":"spark://emr-prod","name":"orders_enrich.execute_insert_into_hadoop_fs_relation_command"},
                 "outputs":[{"namespace":"s3://lake","name":"curated/orders","facets":{}}]}""".formatted(type, time, RUN);
    }

    private List<Marker> markers(String pipeline) {
        return api.store.cascade().markers(pipeline, TODAY);
    }

    private List<Event> lineageEvents(String pipeline) {
        return api.store.events().latest(pipeline, 100).stream()
                .filter(e -> e.kind() == EventKind.LINEAGE_RECEIVED)
                .toList();
    }

    @Test
    void aSparkCompleteOfAnOutputStartsTheDatasetGateOnceAndAFailIsASkipWithItsReason() {
        assertThat(api.call(
                                "PUT",
                                "/pipelines/gold",
                                gated("gold", "{\"datasetNamespace\":\"s3://lake\",\"dataset\":\"curated/orders\"}"))
                        .status())
                .isEqualTo(201);

        JsonNode fail = api.call("POST", "/lineage", event("FAIL", "2026-03-10T08:00:00Z"))
                .json();
        assertThat(fail.path("completed")).isEmpty();
        assertThat(fail.path("skipped"))
                .singleElement()
                .satisfies(s -> assertThat(s.path("reason").asText())
                        .isEqualTo(
                                "a FAIL event does not complete dataset s3://lake/curated/orders; lineage-complete waits "
                                        + "for COMPLETE"));
        assertThat(markers("gold")).isEmpty();
        assertThat(lineageEvents("gold")).singleElement().satisfies(e -> {
            assertThat(e.status()).isEqualTo(SensorArrivals.SKIPPED);
            assertThat(e.details()).containsEntry("runId", RUN).containsEntry("eventType", "FAIL");
        });

        JsonNode complete = api.call("POST", "/lineage", event("COMPLETE", "2026-03-10T08:30:00Z"))
                .json();
        JsonNode again = api.call("POST", "/lineage", event("COMPLETE", "2026-03-10T08:30:00Z"))
                .json();

        assertThat(complete.path("day").asText()).isEqualTo("2026-03-10");
        assertThat(complete.path("completed").findValuesAsText("kind")).containsExactly("job", "dataset");
        assertThat(markers("gold")).hasSize(1);
        assertThat(complete.path("evaluations").get(0).path("executionName").asText())
                .isEqualTo(markers("gold").getFirst().executionName());
        assertThat(again.path("evaluations")).isEmpty();
        assertThat(api.store
                        .sensors()
                        .get(
                                LineageSubject.dataset("s3://lake", "curated/orders")
                                        .sensorName(),
                                "2026-03-10"))
                .hasValueSatisfying(v -> assertThat(v.fields()).containsEntry("runId", RUN));
    }

    @Test
    void anEventNoPipelineWaitsForIsAcceptedAndSaysSo() {
        JsonNode answer = api.call("POST", "/lineage", event("COMPLETE", "2026-03-10T08:30:00Z"))
                .json();
        assertThat(answer.path("reason").asText())
                .isEqualTo("no registered pipeline waits for job spark://emr-prod/"
                        + "orders_enrich.execute_insert_into_hadoop_fs_relation_command or its outputs on 2026-03-10");
    }

    @Test
    void badEventsAndConfigsAreRefusedNamingTheField() {
        ApiFixture.Reply bad = api.call(
                "POST", "/lineage", event("COMPLETE", "2026-03-10T08:30:00").replace(RUN, "not-a-uuid"));
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.errorPaths()).containsExactlyInAnyOrder("$.eventTime", "$.run.runId");

        ApiFixture.Reply noJob = api.call("PUT", "/pipelines/gold", gated("gold", "{\"namespace\":\"dbt://a\"}"));
        assertThat(noJob.status()).isEqualTo(400);
        assertThat(noJob.errorPaths()).contains("$.traits.upstream-dependency.config.job");

        ApiFixture.Reply faked = api.call(
                "PUT",
                "/sensors/" + LineageSubject.job("dbt://a", "orders").sensorName() + "/partitions/2026-03-10",
                "{\"eventType\":\"COMPLETE\"}");
        assertThat(faked.status()).isEqualTo(400);
        assertThat(faked.errorPaths()).containsExactly("path.name");
    }
}
