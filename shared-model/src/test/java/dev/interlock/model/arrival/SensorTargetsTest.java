package dev.interlock.model.arrival;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.archetype.Archetype;
import dev.interlock.model.archetype.TraitDefinition;
import dev.interlock.model.catalog.ArchetypeCatalog;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.pipeline.ReadinessRule;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SensorTargetsTest {

    private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");
    private static final LocalDate TODAY = LocalDate.of(2026, 3, 1);
    private static final Archetype BATCH =
            ArchetypeCatalog.bundled().find("batch-ingestion").orElseThrow();

    private static PipelineConfig pipeline(String sensorConfig, String extra) {
        return InterlockJson.read("""
                {"name":"gold","archetype":"batch-ingestion",
                 "traits":{"upstream-dependency":{"evaluator":"builtin:sensor-threshold","config":%s},
                           "source-freshness":{"evaluator":"builtin:always-pass"},
                           "resource-availability":{"evaluator":"builtin:always-pass"}},
                 "trigger":{"type":"http","url":"https://jobs.example.com/gold"}%s}""".formatted(sensorConfig, extra), PipelineConfig.class);
    }

    private static List<String> targets(PipelineConfig pipeline, Archetype archetype, String sensor, String partition) {
        return SensorTargets.of(pipeline, archetype, sensor, partition, NOW, 2).stream()
                .map(t -> t.scheduleId() + "/" + t.date() + "/" + t.traitTypes())
                .toList();
    }

    private static final String HOURLY =
            ",\"schedules\":[{\"name\":\"h05\"},{\"name\":\"h06\"},{\"name\":\"h23\",\"timezone\":\"Asia/Tokyo\"}]";

    @Test
    void anUnpartitionedWriteConcernsTheCurrentDayOfTraitsWithoutPartition() {
        PipelineConfig plain = pipeline("{\"sensor\":\"orders\",\"field\":\"count\",\"op\":\"gt\",\"value\":0}", "");
        assertThat(targets(plain, BATCH, "orders", null)).containsExactly("daily/2026-03-01/[upstream-dependency]");
        assertThat(targets(plain, BATCH, "orders", "2026-03-01")).isEmpty();
        assertThat(targets(plain, BATCH, "other", null)).isEmpty();
    }

    @Test
    void aPartitionedWriteConcernsTheScheduleAndDateItsTemplateExpandsTo() {
        PipelineConfig hourly = pipeline(
                "{\"sensor\":\"clicks\",\"partition\":\"${date}T${hour}\",\"field\":\"c\",\"op\":\"eq\",\"value\":true}",
                HOURLY);

        assertThat(targets(hourly, BATCH, "clicks", "2026-03-01T06"))
                .containsExactly("h06/2026-03-01/[upstream-dependency]");
        assertThat(targets(hourly, BATCH, "clicks", "2026-02-28T05"))
                .containsExactly("h05/2026-02-28/[upstream-dependency]");
        // Within STALE_MARKER_DAYS only, never in the future, and never the unpartitioned value.
        assertThat(targets(hourly, BATCH, "clicks", "2026-02-26T05")).isEmpty();
        assertThat(targets(hourly, BATCH, "clicks", "2026-03-02T05")).isEmpty();
        assertThat(targets(hourly, BATCH, "clicks", null)).isEmpty();
        // h23 runs in Tokyo, where 10:00 UTC is already 19:00 on the same date.
        assertThat(SensorTargets.of(hourly, BATCH, "clicks", "2026-03-01T23", NOW, 2))
                .singleElement()
                .satisfies(t -> assertThat(t.opensAt()).isEqualTo(Instant.parse("2026-02-28T15:00:00Z")));
    }

    @Test
    void aTemplateWithoutTheDateConcernsTheCurrentDayOnly() {
        PipelineConfig byHour = pipeline(
                "{\"sensor\":\"clicks\",\"partition\":\"hour-${hour}\",\"field\":\"c\",\"op\":\"eq\",\"value\":true}",
                HOURLY);
        assertThat(targets(byHour, BATCH, "clicks", "hour-06")).containsExactly("h06/2026-03-01/[upstream-dependency]");
    }

    @Test
    void aDailyRollupOfEachHoursPartitionIsATargetOfAWriteToAnyHourOfItsDate() {
        PipelineConfig rollup = pipeline(
                "{\"sensor\":\"clicks\",\"partition\":\"${date}T${hour}\",\"field\":\"c\",\"op\":\"eq\","
                        + "\"value\":true,\"rollup\":true}",
                "");

        assertThat(targets(rollup, BATCH, "clicks", "2026-03-01T17"))
                .containsExactly("daily/2026-03-01/[upstream-dependency]");
        assertThat(targets(rollup, BATCH, "clicks", "2026-03-01T00"))
                .containsExactly("daily/2026-03-01/[upstream-dependency]");
        assertThat(targets(rollup, BATCH, "clicks", "2026-02-28T23"))
                .containsExactly("daily/2026-02-28/[upstream-dependency]");
        // Not another sensor, not a partition that is no hour of a date read, not the unpartitioned value.
        assertThat(targets(rollup, BATCH, "views", "2026-03-01T17")).isEmpty();
        assertThat(targets(rollup, BATCH, "clicks", "2026-03-01T24")).isEmpty();
        assertThat(targets(rollup, BATCH, "clicks", "2026-03-01")).isEmpty();
        assertThat(targets(rollup, BATCH, "clicks", "2026-03-02T01")).isEmpty();
        assertThat(targets(rollup, BATCH, "clicks", null)).isEmpty();
    }

    @Test
    void aSensorNamedByTheArchetypeCountsUnlessThePipelineOverridesIt() {
        Archetype sensing = new Archetype(
                "sensing",
                null,
                List.of(new TraitDefinition(
                        "landed",
                        null,
                        "builtin:sensor-freshness",
                        Map.of("sensor", "raw", "maxAgeSeconds", 600),
                        0,
                        0)),
                List.of(),
                ReadinessRule.ALL_REQUIRED_PASS);
        PipelineConfig inherits = InterlockJson.read("""
                {"name":"gold","archetype":"sensing","trigger":{"type":"http","url":"https://jobs.example.com/gold"}}""", PipelineConfig.class);
        PipelineConfig overrides = InterlockJson.read("""
                {"name":"gold","archetype":"sensing","traits":{"landed":{"config":{"sensor":"other"}}},
                 "trigger":{"type":"http","url":"https://jobs.example.com/gold"}}""", PipelineConfig.class);

        assertThat(targets(inherits, sensing, "raw", null)).containsExactly("daily/2026-03-01/[landed]");
        assertThat(targets(overrides, sensing, "raw", null)).isEmpty();
        assertThat(targets(overrides, sensing, "other", null)).containsExactly("daily/2026-03-01/[landed]");
    }

    @Test
    void onlyTheSensorBuiltinsReadSensors() {
        PipelineConfig external = InterlockJson.read("""
                {"name":"gold","archetype":"batch-ingestion",
                 "traits":{"upstream-dependency":{"evaluator":"https://checks.example.com/x","config":{"sensor":"orders"}},
                           "source-freshness":{"evaluator":"builtin:always-pass"},
                           "resource-availability":{"evaluator":"builtin:always-pass"}},
                 "trigger":{"type":"http","url":"https://jobs.example.com/gold"}}""", PipelineConfig.class);
        assertThat(targets(external, BATCH, "orders", null)).isEmpty();
    }

    @Test
    void aWindowThatOpensLaterIsATargetThatIsNotOpenYet() {
        PipelineConfig late = pipeline(
                "{\"sensor\":\"orders\",\"field\":\"count\",\"op\":\"gt\",\"value\":0}",
                ",\"schedules\":[{\"name\":\"daily\",\"after\":\"12:00\"}]");
        SensorTargets.Target target =
                SensorTargets.of(late, BATCH, "orders", null, NOW, 2).getFirst();
        assertThat(target.date()).isEqualTo(TODAY);
        assertThat(target.isOpen(NOW)).isFalse();
        assertThat(target.isOpen(Instant.parse("2026-03-01T12:00:00Z"))).isTrue();
    }
}
