package dev.interlock.model.validation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.archetype.Archetype;
import dev.interlock.model.calendar.Calendar;
import dev.interlock.model.json.ValidationError;
import java.util.List;
import org.junit.jupiter.api.Test;

class DocumentValidationTest {

    @Test
    void aValidCalendarIsReturned() {
        Validated<Calendar> calendar = DocumentValidation.calendar("""
                name: uk-holidays
                days: [Saturday, sunday]
                dates: ["2026-12-25", "2026-12-26"]
                """);
        assertThat(calendar.errors()).isEmpty();
        assertThat(calendar.value())
                .isEqualTo(new Calendar(
                        "uk-holidays", null, List.of("Saturday", "sunday"), List.of("2026-12-25", "2026-12-26")));
    }

    @Test
    void calendarProblemsAreAllReportedWithPaths() {
        Validated<Calendar> calendar = DocumentValidation.calendar("""
                {"name":"UK Holidays","days":["sat",{"x":1}],"dates":"2026-12-25"}""");
        assertThat(calendar.errors())
                .extracting(ValidationError::path)
                .containsExactly("$.days[1]", "$.dates", "$.name", "$.days[0]");
        assertThat(calendar.value()).isNull();
    }

    @Test
    void archetypeDocumentsAreCheckedForShapeAndRules() {
        Validated<Archetype> archetype = DocumentValidation.archetype("""
                name: medallion
                requiredTraits:
                  - {type: upstream-dependency, defaultTtl: sixty}
                  - {type: upstream-dependency}
                readinessRule: {type: majority}
                """);
        assertThat(archetype.errors())
                .extracting(ValidationError::path)
                .containsExactly("$.requiredTraits[0].defaultTtl", "$.readinessRule.type", "$.requiredTraits[1].type");
        assertThat(archetype.errors().get(1).message())
                .isEqualTo("unknown readinessRule.type 'majority'; allowed: all-required-pass");
    }

    @Test
    void nonObjectDocumentsNameWhatWasExpected() {
        assertThat(DocumentValidation.calendar("[1]").errors())
                .containsExactly(new ValidationError("$", "a calendar must be an object"));
        assertThat(DocumentValidation.archetype("name: [").errors())
                .singleElement()
                .satisfies(e -> assertThat(e.message()).startsWith("malformed document at line"));
    }

    @Test
    void parsedTreesAreValidatedLikeText() {
        Validated<Calendar> calendar = DocumentValidation.calendar(
                dev.interlock.model.json.InterlockJson.tree("{\"name\":\"uk-holidays\",\"dates\":[\"25/12/2026\"]}"));

        assertThat(calendar.errors())
                .containsExactly(new ValidationError("$.dates[0]", "'25/12/2026' is not a date YYYY-MM-DD"));
    }

    @Test
    void numbersBeyondTheDoubleRangeAreTypeErrorsNotExceptions() {
        var validation = new PipelineValidation(dev.interlock.model.catalog.ArchetypeCatalog.bundled()::find);

        Validated<?> pipeline = validation.validateText(
                "{\"name\":\"silver\",\"tier\":1e400,\"retry\":{\"backoffMultiplier\":-1e400}}");
        Validated<?> archetype =
                DocumentValidation.archetype("{\"requiredTraits\":[{\"type\":\"a\",\"defaultTtl\":1e999}]}");

        assertThat(pipeline.errors()).extracting(ValidationError::path).contains("$.tier", "$.retry.backoffMultiplier");
        assertThat(archetype.errors()).extracting(ValidationError::path).contains("$.requiredTraits[0].defaultTtl");
    }

    @Test
    void archetypesAndCalendarsRefuseMisspeltKeysToo() {
        Validated<?> archetype = DocumentValidation.archetype("""
                name: house
                requiredTrait: [{type: ready, evaluator: "builtin:always-pass", defaultTTL: 60, defaultTimout: 5}]
                readinessRule: {type: all-required-pass}
                """);
        Validated<?> calendar = DocumentValidation.calendar("{\"name\":\"uk\",\"date\":[\"2026-12-25\"]}");

        assertThat(archetype.errors())
                .extracting(ValidationError::toString)
                .containsExactly("$.requiredTrait: unknown field; did you mean 'requiredTraits'?");
        assertThat(calendar.errors())
                .extracting(ValidationError::toString)
                .containsExactly("$.date: unknown field; did you mean 'dates'?");
        assertThat(DocumentValidation.archetype("""
                name: house
                requiredTraits: [{type: ready, evaluator: "builtin:always-pass", defaultTimout: 5}]
                readinessRule: {type: all-required-pass}
                """).errors())
                .extracting(ValidationError::toString)
                .containsExactly("$.requiredTraits[0].defaultTimout: unknown field; did you mean 'defaultTimeout'?");
    }

    @Test
    void aKindIsAcceptedWhenItNamesTheDocumentItWasSentAs() {
        assertThat(DocumentValidation.calendar("{\"kind\":\"Calendar\",\"name\":\"uk\",\"dates\":[]}")
                        .errors())
                .isEmpty();
        assertThat(DocumentValidation.calendar("{\"kind\":\"pipeline\",\"name\":\"uk\"}")
                        .errors())
                .extracting(ValidationError::toString)
                .containsExactly("$.kind: 'pipeline' is not the kind of this document: it was sent as a calendar");
    }
}
