package dev.interlock.model.archetype;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.validation.ValidationError;
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
    void anArchetypeNeedsARequiredTrait() {
        var archetype = new Archetype("empty", null, List.of(), List.of(trait("x")), ReadinessRule.ALL_REQUIRED_PASS);
        assertThat(ArchetypeValidation.validate(archetype))
                .containsExactly(new ValidationError("$.requiredTraits", "at least one required trait is needed"));
    }
}
