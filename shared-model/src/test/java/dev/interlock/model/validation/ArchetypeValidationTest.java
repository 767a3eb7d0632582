package dev.interlock.model.validation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.archetype.Archetype;
import dev.interlock.model.archetype.TraitDefinition;
import dev.interlock.model.json.ValidationError;
import dev.interlock.model.net.NeverAllowedAddresses;
import dev.interlock.model.pipeline.ReadinessRule;
import java.util.List;
import org.junit.jupiter.api.Test;

class ArchetypeValidationTest {

    private static TraitDefinition trait(String type) {
        return new TraitDefinition(type, null, null, null, 60, 10);
    }

    @Test
    void aValidArchetypeHasNoErrors() {
        var archetype = new Archetype(
                "medallion",
                null,
                List.of(trait("upstream-dependency")),
                List.of(trait("quality")),
                ReadinessRule.ALL_REQUIRED_PASS);
        assertThat(ArchetypeValidation.validate(archetype)).isEmpty();
    }

    @Test
    void reportsEveryProblemWithItsPath() {
        var archetype = new Archetype(
                "",
                null,
                List.of(trait("a"), trait(""), new TraitDefinition("b", null, "ftp://x", null, -1, 901)),
                List.of(trait("a"), trait("has space")),
                null);
        assertThat(ArchetypeValidation.validate(archetype))
                .extracting(ValidationError::path)
                .containsExactly(
                        "$.name",
                        "$.requiredTraits[1].type",
                        "$.requiredTraits[2].defaultTtl",
                        "$.requiredTraits[2].defaultTimeout",
                        "$.requiredTraits[2].evaluator",
                        "$.optionalTraits[0].type",
                        "$.optionalTraits[1].type",
                        "$.readinessRule.type");
    }

    @Test
    void registrationRefusesANeverAllowedEvaluatorUrlAtItsPath() {
        var archetype = new Archetype(
                "metadata",
                null,
                List.of(new TraitDefinition("a", null, "http://169.254.169.254/latest/meta-data/", null, 60, 10)),
                List.of(new TraitDefinition("b", null, "http://[fd00:ec2::254]/x", null, 60, 10), trait("c")),
                ReadinessRule.ALL_REQUIRED_PASS);
        NeverAllowedAddresses addresses = new NeverAllowedAddresses(host -> List.of());

        assertThat(ArchetypeValidation.validate(archetype, addresses))
                .extracting(ValidationError::path)
                .containsExactly("$.requiredTraits[0].evaluator", "$.optionalTraits[0].evaluator");
        assertThat(ArchetypeValidation.validate(archetype, addresses).getFirst().message())
                .startsWith("'http://169.254.169.254/latest/meta-data/' is refused: ")
                .contains("never allowed");
        // The document alone (how bundled archetypes are checked) has no address check.
        assertThat(ArchetypeValidation.validate(archetype)).isEmpty();
    }

    @Test
    void anArchetypeNeedsARequiredTrait() {
        var archetype = new Archetype("empty", null, List.of(), List.of(trait("x")), ReadinessRule.ALL_REQUIRED_PASS);
        assertThat(ArchetypeValidation.validate(archetype))
                .containsExactly(new ValidationError("$.requiredTraits", "at least one required trait is needed"));
    }
}
