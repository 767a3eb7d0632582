package dev.interlock.model.archetype;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.catalog.ArchetypeCatalog;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.pipeline.ReadinessRule;
import dev.interlock.model.pipeline.TraitConfig;
import dev.interlock.model.trait.ResolvedTrait;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TraitResolutionTest {

    private static final LocalDate D = LocalDate.of(2026, 2, 23);
    private static final Archetype BATCH =
            ArchetypeCatalog.bundled().find("batch-ingestion").orElseThrow();

    private static PipelineConfig pipeline(Map<String, TraitConfig> traits) {
        return new PipelineConfig(
                "silver",
                null,
                "batch-ingestion",
                0,
                traits,
                null,
                null,
                null,
                null,
                null,
                null,
                false,
                60,
                30,
                120,
                7200,
                false,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null);
    }

    @Test
    void requiredTraitsComeInArchetypeOrderWithTheirDefaults() {
        List<ResolvedTrait> traits = TraitResolution.resolve(pipeline(Map.of()), BATCH, "h07", D);
        assertThat(traits)
                .extracting(ResolvedTrait::traitType)
                .containsExactly("source-freshness", "upstream-dependency", "resource-availability");
        assertThat(traits.get(0))
                .isEqualTo(new ResolvedTrait(
                        "silver",
                        "h07",
                        D,
                        "source-freshness",
                        "",
                        Map.of("maxLagSeconds", 300, "date", "2026-02-23", "scheduleId", "h07"),
                        30,
                        300,
                        true));
    }

    @Test
    void pipelineOverridesReplaceEvaluatorTtlTimeoutAndMergeConfigKeyByKey() {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("maxLagSeconds", 9999);
        config.put("sensor", "orders");
        config.put("date", "1999-01-01");
        var traits = Map.of(
                "source-freshness",
                new TraitConfig("builtin:sensor-freshness", config, 15, 5),
                "upstream-dependency",
                new TraitConfig("", Map.of("upstreamPipeline", "bronze"), 0, 0));
        List<ResolvedTrait> resolved = TraitResolution.resolve(pipeline(traits), BATCH, "daily", D);

        ResolvedTrait freshness = resolved.get(0);
        assertThat(freshness.evaluator()).isEqualTo("builtin:sensor-freshness");
        assertThat(freshness.ttl()).isEqualTo(15);
        assertThat(freshness.timeout()).isEqualTo(5);
        // The injected date wins over a user key of the same name: evaluators must judge the execution date.
        assertThat(freshness.config())
                .containsExactly(
                        Map.entry("maxLagSeconds", 9999),
                        Map.entry("sensor", "orders"),
                        Map.entry("date", "2026-02-23"),
                        Map.entry("scheduleId", "daily"));

        ResolvedTrait upstream = resolved.get(1);
        assertThat(upstream.evaluator()).isEmpty();
        assertThat(upstream.ttl()).isEqualTo(600);
        assertThat(upstream.timeout()).isEqualTo(60);
        assertThat(upstream.config()).containsEntry("upstreamPipeline", "bronze");
    }

    @Test
    void optionalTraitsAreIncludedOnlyWhenThePipelineConfiguresThem() {
        var traits = Map.of(
                "data-quality-sample",
                new TraitConfig("http://dq.internal/check", Map.of(), 0, 0),
                "not-in-archetype",
                new TraitConfig("builtin:always-pass", Map.of(), 0, 0));
        List<ResolvedTrait> resolved = TraitResolution.resolve(pipeline(traits), BATCH, "daily", D);
        assertThat(resolved)
                .extracting(ResolvedTrait::traitType)
                .containsExactly(
                        "source-freshness", "upstream-dependency", "resource-availability", "data-quality-sample");
        ResolvedTrait optional = resolved.get(3);
        assertThat(optional.required()).isFalse();
        assertThat(optional.timeout()).isEqualTo(TraitResolution.DEFAULT_TIMEOUT_SECONDS);
        assertThat(optional.ttl()).isZero();
    }

    @Test
    void anArchetypeDefaultEvaluatorIsUsedUnlessThePipelineOverridesIt() {
        var archetype = new Archetype(
                "medallion",
                null,
                List.of(new TraitDefinition(
                        "upstream", null, "builtin:upstream-run-log", Map.of("upstreamPipeline", "x"), 60, 15)),
                List.of(),
                ReadinessRule.ALL_REQUIRED_PASS);
        assertThat(TraitResolution.resolve(pipeline(Map.of()), archetype, "daily", D)
                        .get(0)
                        .evaluator())
                .isEqualTo("builtin:upstream-run-log");
        var overridden = Map.of("upstream", new TraitConfig("lambda:my-check", null, 0, 0));
        assertThat(TraitResolution.resolve(pipeline(overridden), archetype, "daily", D)
                        .get(0)
                        .evaluator())
                .isEqualTo("lambda:my-check");
    }

    @Test
    void resolvingNeverChangesTheArchetypeDefaults() {
        var traits = Map.of("source-freshness", new TraitConfig(null, Map.of("maxLagSeconds", 1), 0, 0));
        TraitResolution.resolve(pipeline(traits), BATCH, "daily", D);
        assertThat(BATCH.requiredTraits().get(0).defaultConfig()).isEqualTo(Map.of("maxLagSeconds", 300));
    }
}
