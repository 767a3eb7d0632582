package dev.interlock.model.lineage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.json.ValidationError;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The essentials of a received OpenLineage run event, each problem named at its JSON path. */
class LineageRunEventTest {

    private static final String RUN = "0193a2e4-7c1d-7f00-8d3e-5b9f2a6c4e11";

    private static Map<String, Object> event() {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("eventType", "COMPLETE");
        event.put("eventTime", "2026-03-01T05:12:33.123456+00:00");
        event.put("producer", "https://github.com/OpenLineage/OpenLineage/tree/1.24.2/integration/dbt");
        event.put("schemaURL", "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent");
        event.put("run", Map.of("runId", RUN, "facets", Map.of("dbt_version", Map.of("version", "1.8.3"))));
        event.put(
                "job", Map.of("namespace", "dbt://analytics", "name", "jaffle_shop.model.orders", "facets", Map.of()));
        event.put("outputs", List.of(Map.of("namespace", "postgres://wh:5432", "name", "marts.orders")));
        event.put("someVendorExtension", Map.of("anything", true));
        return event;
    }

    private static LineageRunEvent.Parsed parse(Map<String, Object> event) {
        return LineageRunEvent.parse(InterlockJson.tree(event));
    }

    private static List<String> paths(LineageRunEvent.Parsed parsed) {
        assertThat(parsed.event()).isNull();
        return parsed.errors().stream().map(ValidationError::path).toList();
    }

    @Test
    void aDbtCompleteIsReadWithItsJobOutputsAndDayAndUnknownFieldsIgnored() {
        LineageRunEvent.Parsed parsed = parse(event());

        assertThat(parsed.errors()).isEmpty();
        LineageRunEvent e = parsed.event();
        assertThat(e.eventType()).isEqualTo(LineageRunEvent.EventType.COMPLETE);
        assertThat(e.runId()).isEqualTo(RUN);
        assertThat(e.job()).isEqualTo(LineageSubject.job("dbt://analytics", "jaffle_shop.model.orders"));
        assertThat(e.outputs()).containsExactly(LineageSubject.dataset("postgres://wh:5432", "marts.orders"));
        assertThat(e.day()).isEqualTo(LocalDate.parse("2026-03-01"));
        assertThat(e.storedFields()).containsEntry("runId", RUN).containsEntry("job", "jaffle_shop.model.orders");
    }

    @Test
    void theNominalTimeFacetSaysWhichDayARunIsFor() {
        Map<String, Object> event = event();
        event.put(
                "run",
                Map.of(
                        "runId",
                        RUN,
                        "facets",
                        Map.of("nominalTime", Map.of("nominalStartTime", "2026-02-28T00:00:00Z"))));
        assertThat(parse(event).event().day()).isEqualTo(LocalDate.parse("2026-02-28"));
    }

    @Test
    void eachMissingOrBadEssentialIsNamedAtItsPath() {
        Map<String, Object> event = event();
        event.put("eventType", "DONE");
        event.put("eventTime", "yesterday");
        event.put("run", Map.of("runId", "run-42"));
        event.put("job", Map.of("namespace", "dbt://analytics"));
        event.put("outputs", List.of(Map.of("name", "marts.orders")));

        assertThat(paths(parse(event)))
                .containsExactlyInAnyOrder(
                        "$.eventType", "$.eventTime", "$.run.runId", "$.job.name", "$.outputs[0].namespace");
    }

    @Test
    void runAndJobMustBeObjectsAndTheDocumentAnObject() {
        Map<String, Object> event = event();
        event.remove("run");
        event.put("job", "orders");
        assertThat(paths(parse(event))).containsExactlyInAnyOrder("$.run", "$.job");
        assertThat(paths(LineageRunEvent.parse(InterlockJson.tree(List.of())))).containsExactly("$");
    }

    @Test
    void aSubjectsReservedSensorIsStableAndDistinctPerKindNamespaceAndName() {
        LineageSubject job = LineageSubject.job("dbt://analytics", "orders");
        assertThat(job.sensorName())
                .isEqualTo(LineageSubject.job("dbt://analytics", "orders").sensorName());
        assertThat(job.sensorName()).startsWith("lineage:job:").hasSize("lineage:job:".length() + 32);
        assertThat(job.sensorName())
                .isNotEqualTo(
                        LineageSubject.dataset("dbt://analytics", "orders").sensorName())
                .isNotEqualTo(LineageSubject.job("dbt://analytic", "sorders").sensorName());
    }

    @Test
    void aGateNeedsAJobOrDatasetAndANamespace() {
        assertThat(LineageGate.configErrors(Map.of("namespace", "dbt://a"), "$.traits.t.config"))
                .extracting(ValidationError::path)
                .containsExactly("$.traits.t.config.job");
        assertThat(LineageGate.configErrors(Map.of("job", "orders"), "$.traits.t.config"))
                .extracting(ValidationError::path)
                .containsExactly("$.traits.t.config.namespace");
        assertThat(LineageGate.configErrors(Map.of("dataset", "marts.orders", "datasetNamespace", "pg://x"), "$c"))
                .isEmpty();
        assertThat(LineageGate.configErrors(
                        Map.of("namespace", "dbt://a", "job", "orders", "partition", "${runId}"), "$c"))
                .extracting(ValidationError::path)
                .containsExactly("$c.partition");
        assertThat(LineageGate.of(Map.of("namespace", "dbt://a", "job", "orders"))
                        .orElseThrow()
                        .partitionTemplate())
                .isEqualTo("${date}");
    }
}
