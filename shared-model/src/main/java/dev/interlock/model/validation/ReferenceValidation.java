package dev.interlock.model.validation;

import dev.interlock.model.calendar.Calendar;
import dev.interlock.model.json.JsonPath;
import dev.interlock.model.json.ValidationError;
import dev.interlock.model.pipeline.ExclusionConfig;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.schedule.Exclusions;
import java.time.DayOfWeek;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The checks of a pipeline that need the registered documents it names, beside {@link PipelineValidation}'s checks of
 * the document itself: its exclusion calendar must be registered, and its exclusions must leave at least one day of
 * the week to run on. Each is a way configuration could otherwise disable a pipeline silently.
 */
public final class ReferenceValidation {

    private ReferenceValidation() {}

    /**
     * The problems of {@code config}'s exclusions given {@code calendar}, the registered calendar it names (null when
     * none is registered under that name, or it names none).
     */
    public static List<ValidationError> exclusions(PipelineConfig config, Calendar calendar) {
        List<ValidationError> errors = new ArrayList<>();
        ExclusionConfig exclusions = config.exclusions();
        if (exclusions == null) {
            return errors;
        }
        String exclusionsPath = JsonPath.field(JsonPath.ROOT, "exclusions");
        String calendarPath = JsonPath.field(exclusionsPath, "calendar");
        String named = exclusions.calendar() == null || exclusions.calendar().isBlank()
                ? null
                : exclusions.calendar().trim();
        if (named != null && calendar == null) {
            errors.add(new ValidationError(
                    calendarPath,
                    "calendar '" + named + "' is not registered; register it first " + "(PUT /calendars/" + named
                            + ") or fix the name"));
        }
        Set<DayOfWeek> inline = weekdays(exclusions.days());
        Set<DayOfWeek> all = EnumSet.copyOf(inline.isEmpty() ? EnumSet.noneOf(DayOfWeek.class) : inline);
        if (named != null && calendar != null) {
            all.addAll(weekdays(calendar.days()));
        }
        if (all.size() == DayOfWeek.values().length) {
            boolean inlineAlone = inline.size() == DayOfWeek.values().length;
            errors.add(new ValidationError(
                    inlineAlone ? JsonPath.field(exclusionsPath, "days") : calendarPath,
                    (inlineAlone ? "exclusions.days" : "exclusions.days with calendar '" + named + "'")
                            + " exclude every day of the week: the pipeline would never run"));
        }
        return errors;
    }

    /**
     * The problems {@code after} has that {@code before} had not: what a change to a document a pipeline uses would
     * break in it (problems it already had are not the change's doing).
     */
    public static List<ValidationError> introduced(List<ValidationError> before, List<ValidationError> after) {
        return after.stream().filter(e -> !before.contains(e)).toList();
    }

    private static Set<DayOfWeek> weekdays(List<String> names) {
        Set<DayOfWeek> days = EnumSet.noneOf(DayOfWeek.class);
        names.stream().map(Exclusions::weekday).filter(Objects::nonNull).forEach(days::add);
        return days;
    }
}
