package dev.interlock.model.validation;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.interlock.model.archetype.Archetype;
import dev.interlock.model.calendar.Calendar;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.json.JsonPath;
import dev.interlock.model.json.ValidationError;
import dev.interlock.model.net.NeverAllowedAddresses;
import dev.interlock.model.schedule.Exclusions;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Turns submitted JSON/YAML text into a validated record or the full list of its problems: malformed text, wrong
 * types and bad values all come back as path-named errors, never as exceptions. Pipelines go through
 * {@link PipelineValidation}; archetypes and calendars through here.
 */
public final class DocumentValidation {
    private DocumentValidation() {}

    /** Parses and validates an archetype document. */
    public static Validated<Archetype> archetype(String text) {
        return validateText(
                text, "archetype", DocumentShapes.ARCHETYPE, Archetype.class, ArchetypeValidation::validate);
    }

    /** Parses and validates a calendar document. */
    public static Validated<Calendar> calendar(String text) {
        return validateText(
                text, "calendar", DocumentShapes.CALENDAR, Calendar.class, DocumentValidation::validateCalendar);
    }

    /** Validates an already parsed archetype document (the API reads bodies itself); the tree is not modified. */
    public static Validated<Archetype> archetype(JsonNode document) {
        return validateTree(
                document, "archetype", DocumentShapes.ARCHETYPE, Archetype.class, ArchetypeValidation::validate);
    }

    /**
     * Validates an archetype being registered: the document, and its trait evaluator URLs against the never-allowed
     * addresses ({@link ArchetypeValidation#validate(Archetype, NeverAllowedAddresses)}); the tree is not modified.
     */
    public static Validated<Archetype> archetype(JsonNode document, NeverAllowedAddresses addresses) {
        return validateTree(
                document,
                "archetype",
                DocumentShapes.ARCHETYPE,
                Archetype.class,
                archetype -> ArchetypeValidation.validate(archetype, addresses));
    }

    /** Validates an already parsed calendar document; the tree is not modified. */
    public static Validated<Calendar> calendar(JsonNode document) {
        return validateTree(
                document, "calendar", DocumentShapes.CALENDAR, Calendar.class, DocumentValidation::validateCalendar);
    }

    /** Every problem of a calendar: its name is a key part, its days and dates must be readable. */
    public static List<ValidationError> validateCalendar(Calendar calendar) {
        List<ValidationError> errors = new ArrayList<>();
        String namePath = JsonPath.field(JsonPath.ROOT, "name");
        if (calendar.name() == null || calendar.name().isBlank()) {
            errors.add(new ValidationError(namePath, "name is required"));
        } else if (!ArchetypeValidation.NAME.matcher(calendar.name()).matches()) {
            errors.add(new ValidationError(
                    namePath, "'" + calendar.name() + "' must match " + ArchetypeValidation.NAME.pattern()));
        }
        for (int i = 0; i < calendar.days().size(); i++) {
            if (Exclusions.weekday(calendar.days().get(i)) == null) {
                errors.add(new ValidationError(
                        JsonPath.index(JsonPath.field(JsonPath.ROOT, "days"), i),
                        "'" + calendar.days().get(i) + "' is not a weekday; use full English names like saturday"));
            }
        }
        for (int i = 0; i < calendar.dates().size(); i++) {
            if (Exclusions.date(calendar.dates().get(i)) == null) {
                errors.add(new ValidationError(
                        JsonPath.index(JsonPath.field(JsonPath.ROOT, "dates"), i),
                        "'" + calendar.dates().get(i) + "' is not a date YYYY-MM-DD"));
            }
        }
        return errors;
    }

    static <T> Validated<T> validateText(
            String text, String kind, Shape shape, Class<T> type, Function<T, List<ValidationError>> semantic) {
        if (text == null || text.isBlank()) {
            return new Validated<>(null, List.of(new ValidationError(JsonPath.ROOT, "the document is empty")));
        }
        ObjectMapper mapper = InterlockJson.looksLikeJson(text) ? InterlockJson.json() : InterlockJson.yaml();
        JsonNode tree;
        try {
            tree = mapper.readTree(text);
        } catch (JsonProcessingException e) {
            return new Validated<>(null, List.of(new ValidationError(JsonPath.ROOT, malformed(e))));
        }
        return validateTree(tree, kind, shape, type, semantic);
    }

    static <T> Validated<T> validateTree(
            JsonNode document, String kind, Shape shape, Class<T> type, Function<T, List<ValidationError>> semantic) {
        if (document == null || document.isMissingNode() || document.isNull()) {
            return new Validated<>(null, List.of(new ValidationError(JsonPath.ROOT, "the document is empty")));
        }
        if (!document.isObject()) {
            return new Validated<>(
                    null, List.of(new ValidationError(JsonPath.ROOT, "a " + kind + " must be an object")));
        }
        // The shape check prunes what it reports, so work on a copy: the caller's tree stays as submitted.
        JsonNode tree = document.deepCopy();
        Shape.Findings findings = new Shape.Findings();
        Shape.check(shape, tree, JsonPath.ROOT, findings);
        List<ValidationError> structural = findings.errors();
        T value;
        try {
            value = InterlockJson.json().treeToValue(tree, type);
        } catch (JsonProcessingException e) {
            // The shape check should have caught it; if not, still answer with a path instead of an exception.
            structural.add(new ValidationError(InterlockJson.pathOf(e), e.getOriginalMessage()));
            return new Validated<>(null, structural);
        }
        List<ValidationError> errors = new ArrayList<>(structural);
        for (ValidationError error : semantic.apply(value)) {
            // A pruned part reads as absent, and so does the field a misspelt key meant: their "is required" echo
            // would only repeat the structural error.
            boolean overlaps = structural.stream()
                            .anyMatch(s -> JsonPath.isWithin(error.path(), s.path())
                                    || JsonPath.isWithin(s.path(), error.path()))
                    || findings.meantPaths().stream().anyMatch(meant -> JsonPath.isWithin(error.path(), meant));
            if (!overlaps) {
                errors.add(error);
            }
        }
        return new Validated<>(value, errors);
    }

    private static String malformed(JsonProcessingException e) {
        JsonLocation at = e.getLocation();
        String where = at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
        return "malformed document" + where + ": " + e.getOriginalMessage();
    }
}
