package dev.interlock.model.validation;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.archetype.Archetype;
import dev.interlock.model.archetype.ArchetypeValidation;
import dev.interlock.model.archetype.ReadinessRuleType;
import dev.interlock.model.calendar.Calendar;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.schedule.Exclusions;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import static dev.interlock.model.validation.Shape.integer;
import static dev.interlock.model.validation.Shape.object;
import static dev.interlock.model.validation.Shape.text;

/**
 * Registration-time validation of archetype and calendar documents, like {@link PipelineValidation#validateTree}: wrong
 * types and semantic problems are all reported at once, each with its JSON path, instead of Jackson's first error.
 */
public final class DocumentValidation {

    private static final Shape TRAIT_DEFINITION = object("type", text(), "description", text(), "evaluator", text(),
            "defaultConfig", new Shape.MapOf(new Shape.Anything()), "defaultTtl", integer(), "defaultTimeout", integer());

    private static final Shape ARCHETYPE = object("name", text(), "description", text(),
            "requiredTraits", new Shape.ListOf(TRAIT_DEFINITION), "optionalTraits", new Shape.ListOf(TRAIT_DEFINITION),
            "readinessRule", object("type", text(ReadinessRuleType::fromJson)));

    private static final Shape CALENDAR = object("name", text(), "description", text(),
            "days", new Shape.ListOf(text()), "dates", new Shape.ListOf(text()));

    private DocumentValidation() {
    }

    /** Validates an archetype document (R§1.10 rules of {@link ArchetypeValidation}). The tree is not modified. */
    public static Validated<Archetype> archetype(JsonNode document) {
        return validate(document, "an archetype", ARCHETYPE, Archetype.class, ArchetypeValidation::validate);
    }

    /** Validates a named exclusion calendar: a name, full English weekday names and YYYY-MM-DD dates. */
    public static Validated<Calendar> calendar(JsonNode document) {
        return validate(document, "a calendar", CALENDAR, Calendar.class, DocumentValidation::calendarErrors);
    }

    private static List<ValidationError> calendarErrors(Calendar calendar) {
        List<ValidationError> errors = new ArrayList<>();
        String name = JsonPath.field(JsonPath.ROOT, "name");
        if (calendar.name() == null || calendar.name().isBlank()) {
            errors.add(new ValidationError(name, "name is required"));
        } else if (!ArchetypeValidation.NAME.matcher(calendar.name()).matches()) {
            errors.add(new ValidationError(name, "'" + calendar.name() + "' must match " + ArchetypeValidation.NAME.pattern()));
        }
        for (int i = 0; i < calendar.days().size(); i++) {
            String day = calendar.days().get(i);
            if (day == null || Exclusions.weekday(day) == null) {
                errors.add(new ValidationError(JsonPath.index(JsonPath.field(JsonPath.ROOT, "days"), i),
                        "'" + day + "' is not a weekday; use full English names like saturday"));
            }
        }
        for (int i = 0; i < calendar.dates().size(); i++) {
            String date = calendar.dates().get(i);
            if (date == null || Exclusions.date(date) == null) {
                errors.add(new ValidationError(JsonPath.index(JsonPath.field(JsonPath.ROOT, "dates"), i),
                        "'" + date + "' is not a date YYYY-MM-DD"));
            }
        }
        return errors;
    }

    private static <T> Validated<T> validate(JsonNode document, String what, Shape shape, Class<T> type,
                                             Function<T, List<ValidationError>> semantic) {
        if (document == null || document.isMissingNode() || document.isNull()) {
            return new Validated<>(null, List.of(new ValidationError(JsonPath.ROOT, "the document is empty")));
        }
        if (!document.isObject()) {
            return new Validated<>(null, List.of(new ValidationError(JsonPath.ROOT, what + " must be an object")));
        }
        JsonNode tree = document.deepCopy();
        List<ValidationError> structural = new ArrayList<>();
        Shape.check(shape, tree, JsonPath.ROOT, structural);
        T value;
        try {
            value = InterlockJson.json().treeToValue(tree, type);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            String message = e instanceof JsonProcessingException jpe ? jpe.getOriginalMessage() : e.getMessage();
            structural.add(new ValidationError(e instanceof JsonProcessingException jpe ? PipelineValidation.pathOf(jpe)
                    : JsonPath.ROOT, message));
            return new Validated<>(null, structural);
        }
        List<ValidationError> errors = new ArrayList<>(structural);
        for (ValidationError error : semantic.apply(value)) {
            boolean overlaps = structural.stream().anyMatch(s ->
                    JsonPath.isWithin(error.path(), s.path()) || JsonPath.isWithin(s.path(), error.path()));
            if (!overlaps) {
                errors.add(error);
            }
        }
        return new Validated<>(value, errors);
    }
}
