package dev.interlock.model.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.model.archetype.Archetype;
import dev.interlock.model.archetype.TraitDefinition;
import dev.interlock.model.pipeline.ReadinessRule;
import dev.interlock.model.validation.ArchetypeValidation;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ArchetypeCatalogTest {

    @Test
    void bundlesTheThreeArchetypesOfTheGoOriginal() {
        ArchetypeCatalog catalog = ArchetypeCatalog.bundled();
        assertThat(catalog.all())
                .extracting(Archetype::name)
                .containsExactly("batch-ingestion", "ml-feature-pipeline", "streaming-enrichment");
        for (Archetype archetype : catalog.all()) {
            assertThat(ArchetypeValidation.validate(archetype)).isEmpty();
            assertThat(archetype.readinessRule()).isEqualTo(ReadinessRule.ALL_REQUIRED_PASS);
        }
    }

    @Test
    void batchIngestionHasTheDocumentedTraitsAndDefaults() {
        Archetype batch = ArchetypeCatalog.bundled().find("batch-ingestion").orElseThrow();
        assertThat(batch.requiredTraits())
                .extracting(TraitDefinition::type, TraitDefinition::defaultTtl, TraitDefinition::defaultTimeout)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("source-freshness", 300, 30),
                        org.assertj.core.groups.Tuple.tuple("upstream-dependency", 600, 60),
                        org.assertj.core.groups.Tuple.tuple("resource-availability", 120, 10));
        assertThat(batch.requiredTraits().get(0).defaultConfig()).isEqualTo(Map.of("maxLagSeconds", 300));
        assertThat(batch.optionalTraits())
                .extracting(TraitDefinition::type)
                .containsExactly("schema-contract", "data-quality-sample");
    }

    @Test
    void mlAndStreamingArchetypesHaveTheirDocumentedTraits() {
        Archetype ml = ArchetypeCatalog.bundled().find("ml-feature-pipeline").orElseThrow();
        assertThat(ml.requiredTraits())
                .extracting(TraitDefinition::type)
                .containsExactly("source-freshness", "upstream-dependency", "resource-availability", "model-registry");
        assertThat(ml.trait("model-registry").orElseThrow().defaultTtl()).isEqualTo(600);
        assertThat(ml.optionalTraits())
                .extracting(TraitDefinition::type)
                .containsExactly("data-drift-check", "feature-store-health");
        Archetype streaming =
                ArchetypeCatalog.bundled().find("streaming-enrichment").orElseThrow();
        assertThat(streaming.trait("source-freshness").orElseThrow().defaultConfig())
                .isEqualTo(Map.of("maxLagSeconds", 60));
        assertThat(streaming.requiredTraits())
                .extracting(TraitDefinition::type)
                .containsExactly("source-freshness", "enrichment-source", "resource-availability");
    }

    @Test
    void registeredArchetypesAreAddedAndOverrideBundledOnes() {
        var custom = new Archetype(
                "batch-ingestion",
                "mine",
                List.of(new TraitDefinition("only", null, null, null, 1, 1)),
                List.of(),
                ReadinessRule.ALL_REQUIRED_PASS);
        ArchetypeCatalog catalog = ArchetypeCatalog.bundled().with(custom);
        assertThat(catalog.find("batch-ingestion")).contains(custom);
        assertThat(ArchetypeCatalog.bundled()
                        .find("batch-ingestion")
                        .orElseThrow()
                        .description())
                .isNotEqualTo("mine");
        assertThat(catalog.find("nope")).isEmpty();
        assertThat(catalog.find(null)).isEmpty();
    }

    @Test
    void parseRejectsInvalidArchetypesWithEveryError() {
        assertThatThrownBy(() -> ArchetypeCatalog.parse("name: X\nrequiredTraits: []\n", "upload"))
                .hasMessageContaining("invalid archetype upload")
                .hasMessageContaining("$.name")
                .hasMessageContaining("$.requiredTraits: at least one required trait is needed")
                .hasMessageContaining("$.readinessRule.type");
        assertThatThrownBy(() -> ArchetypeCatalog.parse("name: a1\nreadinessRule: {type: majority}\n", "upload"))
                .hasMessageContaining("unknown readinessRule.type 'majority'; allowed: all-required-pass");
    }
}
