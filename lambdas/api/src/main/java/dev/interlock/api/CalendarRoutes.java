package dev.interlock.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.calendar.Calendar;
import dev.interlock.model.json.ValidationError;
import dev.interlock.model.validation.DocumentValidation;
import dev.interlock.model.validation.Validated;
import dev.interlock.store.Provider;
import dev.interlock.store.Registration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code /calendars}: named exclusion calendars that pipelines refer to in {@code exclusions.calendar}. A change or a
 * deletion that would break a pipeline using the calendar is refused with 409 naming each such pipeline.
 */
final class CalendarRoutes {

    private final Provider provider;
    private final RequestBody body;
    private final ReferenceChecks references;

    CalendarRoutes(Provider provider, RequestBody body, ReferenceChecks references) {
        this.provider = provider;
        this.body = body;
        this.references = references;
    }

    ApiResponse put(ApiRequest request, Map<String, String> path) {
        Calendar calendar = validated(request, path);
        return switch (provider.calendars().register(calendar, references.calendarChange(calendar))) {
            case Registration.Written written -> ApiResponse.json(written.created() ? 201 : 200, calendar);
            case Registration.Blocked blocked ->
                throw ProblemException.breaking("changing calendar '" + calendar.name() + "'", blocked.dependants());
            case Registration other -> throw new IllegalStateException("calendar registration answered " + other);
        };
    }

    /** What {@code put} would store, or its 400; writes nothing. */
    ApiResponse validate(ApiRequest request, Map<String, String> path) {
        return ApiResponse.json(200, new ValidationResult(true, validated(request, path)));
    }

    private Calendar validated(ApiRequest request, Map<String, String> path) {
        String name = PathIds.calendarName(path.get("name"));
        JsonNode document = body.readObject(request, false);
        Validated<Calendar> result = DocumentValidation.calendar(document);
        List<ValidationError> errors = new ArrayList<>(result.errors());
        NamedDocument.checkName(document, name, "calendar name", errors);
        if (!errors.isEmpty()) {
            throw ProblemException.invalid("the calendar '" + name + "' has " + errors.size() + " problem(s)", errors);
        }
        return result.value();
    }

    /** The answer of a validation that passed: the calendar as it would be stored. */
    record ValidationResult(boolean valid, Calendar calendar) {}

    /** {@code DELETE /calendars/{name}}: refused (409) while a pipeline names it in {@code exclusions.calendar}. */
    ApiResponse delete(ApiRequest request, Map<String, String> path) {
        String name = PathIds.calendarName(path.get("name"));
        return switch (provider.calendars().delete(name, references.calendarDeletion())) {
            case Registration.Deleted deleted -> ApiResponse.noContent();
            case Registration.NotFound notFound ->
                throw ProblemException.of(ProblemType.NOT_FOUND, "no calendar '" + name + "'");
            case Registration.Blocked blocked ->
                throw ProblemException.breaking("deleting calendar '" + name + "'", blocked.dependants());
            case Registration other -> throw new IllegalStateException("calendar deletion answered " + other);
        };
    }

    ApiResponse get(ApiRequest request, Map<String, String> path) {
        String name = PathIds.calendarName(path.get("name"));
        return provider.calendars()
                .get(name)
                .map(calendar -> ApiResponse.json(200, calendar))
                .orElseThrow(() -> ProblemException.of(ProblemType.NOT_FOUND, "no calendar '" + name + "'"));
    }
}
