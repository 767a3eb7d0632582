package dev.interlock.model.sensor;

import dev.interlock.model.trigger.ArgumentTemplate;
import dev.interlock.model.trigger.TemplateValues;
import java.time.LocalDate;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The partition of a sensor a trait reads: its config key {@code partition} is a template expanded like trigger
 * {@code arguments} ({@link ArgumentTemplate}: {@code ${date}}, {@code ${hour}}, {@code ${scheduleId}},
 * {@code ${pipelineId}}) for the (pipeline, schedule, date) being evaluated, so {@code ${date}T${hour}} reads
 * {@code 2026-03-01T06} for schedule {@code h06} of 2026-03-01.
 */
public final class SensorPartition {

    /** The trait config key naming the partition template. */
    public static final String CONFIG_KEY = "partition";
    /** What a partition may be: it is a key part and a URL path segment, so no '#', '/' or whitespace. */
    public static final Pattern PATTERN = Pattern.compile("^[A-Za-z0-9][A-Za-z0-9._:=+-]{0,127}$");

    private static final LocalDate SAMPLE_DATE = LocalDate.of(2026, 3, 1);
    private static final String SAMPLE_SCHEDULE = "h06";
    private static final String SAMPLE_PIPELINE = "pipeline";

    private SensorPartition() {}

    /** Whether {@code partition} may name a partition. */
    public static boolean isValid(String partition) {
        return partition != null && PATTERN.matcher(partition).matches();
    }

    /** The partition {@code template} names for one (pipeline, schedule, date). */
    public static String expand(String template, String pipelineId, String scheduleId, LocalDate date) {
        return ArgumentTemplate.expand(template.trim(), new TemplateValues(pipelineId, scheduleId, date, null));
    }

    /**
     * Whether the partition depends on the execution date: a template without {@code ${date}} reads the same
     * partition every day, so a write to it concerns only the current day.
     */
    public static boolean dependsOnDate(String template) {
        return !expand(template, SAMPLE_PIPELINE, SAMPLE_SCHEDULE, SAMPLE_DATE)
                .equals(expand(template, SAMPLE_PIPELINE, SAMPLE_SCHEDULE, SAMPLE_DATE.plusDays(1)));
    }

    /**
     * What is wrong with a partition template, or empty: it must expand (with example values) to a valid partition,
     * and may use only the placeholders known when traits are evaluated ({@code ${runId}} is not: no run exists yet).
     */
    public static Optional<String> templateProblem(String template) {
        if (template == null || template.isBlank()) {
            return Optional.of("partition must be a non-empty template, e.g. \"${date}\" or \"${date}T${hour}\"");
        }
        String withoutRun;
        try {
            withoutRun = ArgumentTemplate.expand(
                    template.trim(), new TemplateValues(SAMPLE_PIPELINE, SAMPLE_SCHEDULE, SAMPLE_DATE, null));
        } catch (ArgumentTemplate.TemplateException e) {
            // ${runId} and any placeholder the template language does not know are refused by the expansion itself.
            return Optional.of(
                    template.toLowerCase(java.util.Locale.ROOT).replace(" ", "").contains("${runid}")
                            ? "partition cannot use ${runId}: traits are evaluated before a run exists; use ${date}, ${hour}, "
                                    + "${scheduleId} or ${pipelineId}"
                            : "partition '" + template + "' has an unknown placeholder (" + e.getMessage()
                                    + "); use ${date}, " + "${hour}, ${scheduleId} or ${pipelineId}");
        }
        if (!isValid(withoutRun)) {
            return Optional.of(
                    "partition '" + template + "' expands to '" + withoutRun + "' (for schedule " + SAMPLE_SCHEDULE
                            + " of " + SAMPLE_DATE + "), which is not a partition (" + PATTERN.pattern() + ")");
        }
        return Optional.empty();
    }
}
