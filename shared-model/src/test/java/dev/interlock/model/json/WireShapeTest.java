package dev.interlock.model.json;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.alert.Alert;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.model.archetype.TraitResolution;
import dev.interlock.model.catalog.ArchetypeCatalog;
import dev.interlock.model.fixtures.SamplePipelines;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.trait.ResolvedTrait;
import dev.interlock.model.trait.TraitResult;
import dev.interlock.model.trait.TraitStatus;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Pins the JSON that crosses Lambda and Step Functions boundaries, so a record change cannot silently alter it. */
class WireShapeTest {

    private static final LocalDate D = LocalDate.of(2026, 2, 23);

    @Test
    void resolvedTraitIsTheEvaluatorInputOfSpecSection8() {
        ResolvedTrait trait = TraitResolution.resolve(
                        SamplePipelines.silverOrders(),
                        ArchetypeCatalog.bundled().find("batch-ingestion").orElseThrow(),
                        "daily",
                        D)
                .get(0);
        assertThat(InterlockJson.write(trait))
                .isEqualTo("{\"pipelineId\":\"silver.orders\",\"scheduleId\":\"daily\","
                        + "\"date\":\"2026-02-23\",\"traitType\":\"source-freshness\",\"evaluator\":\"builtin:sensor-freshness\","
                        + "\"config\":{\"maxLagSeconds\":300,\"sensor\":\"orders\",\"maxAgeSeconds\":900,\"date\":\"2026-02-23\","
                        + "\"scheduleId\":\"daily\"},\"timeout\":30,\"ttl\":300,\"required\":true}");
    }

    @Test
    void traitResultCarriesTheEvaluatorOutputFieldsAndOmitsAbsentOnes() {
        var result = new TraitResult(
                "p",
                "daily",
                D,
                "fresh",
                TraitStatus.ERROR,
                null,
                "HTTP 503",
                FailureCategory.TRANSIENT,
                true,
                Instant.parse("2026-02-23T10:00:00Z"),
                null);
        assertThat(InterlockJson.write(result))
                .isEqualTo("{\"pipelineId\":\"p\",\"scheduleId\":\"daily\",\"date\":\"2026-02-23\","
                        + "\"traitType\":\"fresh\",\"status\":\"ERROR\",\"reason\":\"HTTP 503\",\"failureCategory\":\"TRANSIENT\","
                        + "\"required\":true,\"evaluatedAt\":\"2026-02-23T10:00:00.000Z\"}");
    }

    @Test
    void alertBodyAndSubjectFollowSpecSection10() {
        var alert = new Alert(
                AlertLevel.WARNING,
                AlertKind.SLA_MISSED,
                "gold",
                "daily",
                D,
                "deadline 07:30 passed",
                Map.of("deadline", "2026-02-23T06:30:00.000Z"),
                Instant.parse("2026-02-23T06:31:00Z"));
        assertThat(InterlockJson.write(alert))
                .isEqualTo(
                        "{\"level\":\"warning\",\"kind\":\"SLA_MISSED\",\"pipelineId\":\"gold\","
                                + "\"scheduleId\":\"daily\",\"date\":\"2026-02-23\",\"message\":\"deadline 07:30 passed\","
                                + "\"details\":{\"deadline\":\"2026-02-23T06:30:00.000Z\"},\"timestamp\":\"2026-02-23T06:31:00.000Z\"}");
        assertThat(alert.subject()).isEqualTo("[warning] SLA_MISSED gold");
        var longName = new Alert(
                AlertLevel.ERROR,
                AlertKind.SLA_COMPLETION_BREACHED,
                "p".repeat(120),
                null,
                null,
                "m",
                null,
                Instant.EPOCH);
        assertThat(longName.subject()).hasSize(100).startsWith("[error] SLA_COMPLETION_BREACHED ppp");
    }
}
