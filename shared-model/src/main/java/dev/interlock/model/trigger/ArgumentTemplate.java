package dev.interlock.model.trigger;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Expands {@code ${date}}, {@code ${hour}}, {@code ${scheduleId}}, {@code ${pipelineId}} and {@code ${runId}} in
 * trigger {@code arguments} values (names case-insensitive, so the Go spelling {@code ${scheduleID}} works).
 * Unknown placeholders stay as written: they may be meant for the job itself.
 */
public final class ArgumentTemplate {
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Za-z]+)}");

    private ArgumentTemplate() {
    }

    /** Expands one template string. */
    public static String expand(String template, TemplateValues values) {
        if (template == null || template.indexOf('$') < 0) {
            return template;
        }
        Matcher m = PLACEHOLDER.matcher(template);
        StringBuilder out = new StringBuilder(template.length());
        while (m.find()) {
            String replacement = valueOf(m.group(1), values);
            m.appendReplacement(out, Matcher.quoteReplacement(replacement == null ? m.group() : replacement));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** The trigger with every argument value expanded; other fields are untouched. */
    public static TriggerConfig expand(TriggerConfig trigger, TemplateValues values) {
        Map<String, String> arguments = trigger.templatedArguments();
        if (arguments.isEmpty()) {
            return trigger;
        }
        Map<String, String> expanded = new LinkedHashMap<>();
        arguments.forEach((key, value) -> expanded.put(key, expand(value, values)));
        return trigger.withTemplatedArguments(expanded);
    }

    private static String valueOf(String name, TemplateValues values) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "date" -> values.date() == null ? "" : values.date().toString();
            case "hour" -> values.hour();
            case "scheduleid" -> nullToEmpty(values.scheduleId());
            case "pipelineid" -> nullToEmpty(values.pipelineId());
            case "runid" -> nullToEmpty(values.runId());
            default -> null;
        };
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
