package dev.interlock.model.validation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.json.ValidationError;
import org.junit.jupiter.api.Test;

class DocumentValidationErrorsTest {

    @Test
    void anArchetypeWithWrongTypesAndSemanticProblemsListsThemAll() {
        Validated<?> result = DocumentValidation.archetype(InterlockJson.tree("""
                {"name": "Bad Name", "requiredTraits": [{"type": "a", "defaultTtl": "soon"}, {"type": "a"}, 7],
                 "readinessRule": {"type": "majority"}}"""));

        assertThat(result.errors())
                .extracting(ValidationError::toString)
                .containsExactly(
                        "$.requiredTraits[0].defaultTtl: expected a whole number, got text \"soon\"",
                        "$.requiredTraits[2]: expected an object, got a number",
                        "$.readinessRule.type: unknown readinessRule.type 'majority'; allowed: all-required-pass",
                        "$.name: 'Bad Name' must match "
                                + dev.interlock.model.validation.ArchetypeValidation.NAME.pattern(),
                        "$.requiredTraits[1].type: trait 'a' is declared twice");
    }

    @Test
    void aValidCalendarBindsAndABadOneNamesEveryEntry() {
        assertThat(DocumentValidation.calendar(InterlockJson.tree("""
                {"name": "uk-holidays", "days": ["Saturday"], "dates": ["2026-12-25"]}""")).value().dates())
                .containsExactly("2026-12-25");

        Validated<?> bad = DocumentValidation.calendar(InterlockJson.tree("""
                {"days": ["someday", 3, ["x"]], "dates": "2026-12-25"}"""));

        assertThat(bad.errors())
                .extracting(ValidationError::toString)
                .containsExactly(
                        "$.days[2]: expected a text value, got a list",
                        "$.dates: expected a list, got text",
                        "$.name: name is required",
                        "$.days[0]: 'someday' is not a weekday; use full English names like saturday",
                        "$.days[1]: '3' is not a weekday; use full English names like saturday");
        assertThat(DocumentValidation.calendar(InterlockJson.tree("[1]")).errors())
                .containsExactly(new ValidationError("$", "a calendar must be an object"));
    }

    @Test
    void numbersBeyondTheDoubleRangeAreTypeErrorsNotExceptions() {
        var validation = new PipelineValidation(dev.interlock.model.catalog.ArchetypeCatalog.bundled()::find);

        Validated<?> pipeline = validation.validateText(
                "{\"name\":\"silver\",\"tier\":1e400,\"retry\":{\"backoffMultiplier\":-1e400}}");
        Validated<?> archetype = DocumentValidation.archetype(
                InterlockJson.tree("{\"requiredTraits\":[{\"type\":\"a\",\"defaultTtl\":1e999}]}"));

        assertThat(pipeline.errors()).extracting(ValidationError::path).contains("$.tier", "$.retry.backoffMultiplier");
        assertThat(archetype.errors()).extracting(ValidationError::path).contains("$.requiredTraits[0].defaultTtl");
    }
}
