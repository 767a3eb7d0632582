package dev.interlock.model.validation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.catalog.ArchetypeCatalog;
import dev.interlock.model.json.ValidationError;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.testing.Documents;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A rollup at registration: checked against the registered upstream it reads (finer than this pipeline, the schedule
 * it names exists, minCount within its windows), and a sensor rollup over a partition that names each hour.
 */
class RollupValidationTest {

    private static final String TRAIT = "$.traits.upstream-dependency.config";

    private static PipelineConfig upstream(String name, String schedules) {
        return Documents.read("""
                name: %s
                archetype: batch-ingestion
                trigger: {type: http, url: "https://jobs.example.com/run"}
                %s
                """.formatted(name, schedules), PipelineConfig.class);
    }

    private static final Map<String, PipelineConfig> REGISTERED = Map.of(
            "hourly-up", upstream("hourly-up", "schedules: [{name: hourly, cron: '0 * * * *', timezone: UTC}]"),
            "daily-up", upstream("daily-up", ""),
            "mixed-up",
                    upstream(
                            "mixed-up",
                            "schedules: [{name: hourly, cron: '0 * * * *'}, {name: nightly, after: '02:00'}]"));

    private final PipelineValidation validation = new PipelineValidation(ArchetypeCatalog.bundled()::find)
            .withPipelines(name -> Optional.ofNullable(REGISTERED.get(name)));

    private Validated<PipelineConfig> downstream(String upstreamTrait, String extra) {
        return validation.validateText(yaml(upstreamTrait, extra));
    }

    private static String yaml(String upstreamTrait, String extra) {
        return """
                name: gold
                archetype: batch-ingestion
                traits:
                  upstream-dependency: %s
                  source-freshness: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "https://jobs.example.com/gold"}
                %s
                """.formatted(upstreamTrait, extra);
    }

    private Validated<PipelineConfig> rollupOver(String config) {
        return downstream("{evaluator: \"builtin:upstream-run-log\", config: " + config + "}", "");
    }

    @Test
    void aDailyRollupOverAnHourlyUpstreamIsValid() {
        assertThat(rollupOver("{upstreamPipeline: hourly-up, rollup: true}").errors())
                .isEmpty();
        assertThat(rollupOver("{upstreamPipeline: hourly-up, rollup: {minCount: 24, onUpstreamRerun: rerun}}")
                        .errors())
                .isEmpty();
        assertThat(rollupOver("{upstreamPipeline: mixed-up, upstreamSchedule: hourly, rollup: {minCount: 20}}")
                        .errors())
                .isEmpty();
    }

    @Test
    void aRollupOverAnUpstreamThatIsNotFinerIsRefused() {
        Validated<PipelineConfig> result = rollupOver("{upstreamPipeline: daily-up, rollup: true}");

        assertThat(result.errors()).extracting(ValidationError::path).containsExactly(TRAIT + ".rollup");
        assertThat(result.errors().getFirst().message())
                .startsWith("a rollup needs a finer upstream: daily-up has 1 window a day and this pipeline 1");
    }

    @Test
    void aRollupOverOneWindowOfAFinerUpstreamIsRefusedToo() {
        Validated<PipelineConfig> result =
                rollupOver("{upstreamPipeline: mixed-up, upstreamSchedule: nightly, rollup: true}");

        assertThat(result.errors()).extracting(ValidationError::path).containsExactly(TRAIT + ".rollup");
        assertThat(result.errors().getFirst().message()).contains("mixed-up schedule nightly has 1 window a day");
    }

    @Test
    void aMinCountAboveTheUpstreamsWindowsIsRefused() {
        Validated<PipelineConfig> result = rollupOver("{upstreamPipeline: hourly-up, rollup: {minCount: 25}}");

        assertThat(result.errors()).extracting(ValidationError::path).containsExactly(TRAIT + ".rollup.minCount");
        assertThat(result.errors().getFirst().message())
                .isEqualTo("minCount 25 is more than the 24 windows a day of hourly-up");
    }

    @Test
    void anUpstreamScheduleTheUpstreamDoesNotHaveIsRefused() {
        Validated<PipelineConfig> result =
                rollupOver("{upstreamPipeline: hourly-up, upstreamSchedule: quarterly, rollup: true}");

        assertThat(result.errors()).extracting(ValidationError::path).containsExactly(TRAIT + ".upstreamSchedule");
        assertThat(result.errors().getFirst().message())
                .isEqualTo("upstream hourly-up has no schedule 'quarterly' (schedules: hourly)");
    }

    @Test
    void anUpstreamNotRegisteredYetIsRefusedOnlyAsUnknown() {
        assertThat(rollupOver("{upstreamPipeline: later-up, rollup: {minCount: 1000}}")
                        .errors())
                .extracting(ValidationError::path)
                .containsExactly(TRAIT + ".upstreamPipeline");
        assertThat(new PipelineValidation(ArchetypeCatalog.bundled()::find)
                        .validateText(yaml(
                                "{evaluator: \"builtin:upstream-run-log\", config: {upstreamPipeline: daily-up, rollup: true}}",
                                ""))
                        .errors())
                .as("without a registry nothing about the upstream is known")
                .isEmpty();
    }

    @Test
    void aMalformedRollupIsRefusedAtItsField() {
        assertThat(rollupOver("{upstreamPipeline: hourly-up, rollup: {minCount: 0}}")
                        .errors())
                .extracting(ValidationError::path)
                .containsExactly(TRAIT + ".rollup.minCount");
        assertThat(rollupOver("{upstreamPipeline: hourly-up, rollup: {onUpstreamRerun: retry}}")
                        .errors())
                .extracting(ValidationError::path)
                .containsExactly(TRAIT + ".rollup.onUpstreamRerun");
        assertThat(rollupOver("{upstreamPipeline: hourly-up, rollup: daily}").errors())
                .extracting(ValidationError::path)
                .containsExactly(TRAIT + ".rollup");
    }

    // ---- sensor rollups ----

    private Validated<PipelineConfig> sensorRollup(String partition, String rollup, String schedules) {
        return downstream(
                "{evaluator: \"builtin:sensor-threshold\", config: {sensor: clicks, field: complete, op: eq,"
                        + " value: true, partition: \"" + partition + "\", rollup: " + rollup + "}}",
                schedules);
    }

    @Test
    void aSensorRollupOverEachHoursPartitionOfADailyPipelineIsValid() {
        Validated<PipelineConfig> result = sensorRollup("${date}T${hour}", "true", "");

        assertThat(result.errors())
                .as("no ${hour} refusal: the rollup fills it")
                .isEmpty();
        assertThat(sensorRollup("${date}T${hour}", "{minCount: 24}", "").errors())
                .isEmpty();
    }

    @Test
    void withoutTheRollupTheSamePartitionIsRefusedForItsHour() {
        Validated<PipelineConfig> result = downstream(
                "{evaluator: \"builtin:sensor-threshold\", config: {sensor: clicks, field: complete, op: eq,"
                        + " value: true, partition: \"${date}T${hour}\"}}",
                "");

        assertThat(result.errors()).extracting(ValidationError::path).containsExactly(TRAIT + ".partition");
        assertThat(result.errors().getFirst().message()).contains("uses ${hour}");
        assertThat(sensorRollup("${date}T${hour}", "false", "").errors())
                .as("rollup: false is no rollup")
                .extracting(ValidationError::path)
                .containsExactly(TRAIT + ".partition");
    }

    @Test
    void aSensorRollupWhosePartitionDoesNotNameTheHourIsRefused() {
        Validated<PipelineConfig> result = sensorRollup("${date}", "true", "");

        assertThat(result.errors()).extracting(ValidationError::path).containsExactly(TRAIT + ".partition");
        assertThat(result.errors().getFirst().message()).contains("partition must use ${hour}");
    }

    @Test
    void aSensorRollupWithoutAPartitionIsRefusedAtThePartition() {
        Validated<PipelineConfig> result = downstream(
                "{evaluator: \"builtin:sensor-freshness\", config: {sensor: clicks, maxAgeSeconds: 60, rollup: true}}",
                "");

        assertThat(result.errors()).extracting(ValidationError::path).containsExactly(TRAIT + ".partition");
    }

    @Test
    void aSensorRollupMinCountAboveTwentyFourHoursIsRefused() {
        Validated<PipelineConfig> result = sensorRollup("${date}T${hour}", "{minCount: 25}", "");

        assertThat(result.errors()).extracting(ValidationError::path).containsExactly(TRAIT + ".rollup.minCount");
        assertThat(result.errors().getFirst().message()).contains("24 hourly partitions");
    }

    @Test
    void aBuiltinThatCannotRollUpIsRefused() {
        Validated<PipelineConfig> result =
                downstream("{evaluator: \"builtin:always-pass\", config: {rollup: true}}", "");

        assertThat(result.errors()).extracting(ValidationError::path).containsExactly(TRAIT + ".rollup");
        assertThat(result.errors().getFirst().message()).startsWith("builtin:always-pass cannot roll up");
    }
}
