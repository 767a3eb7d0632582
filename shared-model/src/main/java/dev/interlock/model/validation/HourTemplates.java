package dev.interlock.model.validation;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.json.JsonPath;
import dev.interlock.model.json.ValidationError;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.pipeline.ScheduleConfig;
import dev.interlock.model.rollup.RollupConfig;
import dev.interlock.model.sensor.SensorPartition;
import dev.interlock.model.trigger.ArgumentTemplate;
import dev.interlock.model.trigger.TemplateValues;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * {@code ${hour}} is the hour of a window: a cron schedule's windows have one ({@code hourly.1400} → 14), as do
 * schedules named {@code h00}…{@code h23}; any other schedule has none, so a trigger or trait template that uses it
 * would silently read the wrong partition. Such a template is refused at registration, naming the field and the
 * schedules that cannot fill it.
 */
final class HourTemplates {

    private HourTemplates() {}

    static List<ValidationError> check(PipelineConfig config) {
        List<String> hourless = new ArrayList<>();
        for (ScheduleConfig schedule : config.effectiveSchedules()) {
            if (schedule == null || schedule.name() == null || schedule.hasCron()) {
                continue;
            }
            if (new TemplateValues(config.name(), schedule.name(), null, null)
                    .hour()
                    .isEmpty()) {
                hourless.add(schedule.name());
            }
        }
        List<ValidationError> errors = new ArrayList<>();
        if (hourless.isEmpty()) {
            return errors;
        }
        String message = "uses ${hour}, which schedule" + (hourless.size() == 1 ? " " : "s ")
                + String.join(", ", hourless.stream().map(n -> "'" + n + "'").toList())
                + " cannot fill: only the windows of a cron schedule (e.g. {name: hourly, cron: \"0 * * * *\"}) and "
                + "schedules named h00…h23 have an hour";
        JsonNode tree = InterlockJson.json().valueToTree(config);
        for (String field : List.of("trigger", "traits")) {
            walk(tree.get(field), JsonPath.field(JsonPath.ROOT, field), message, errors);
        }
        // A rollup fills ${hour} itself, once for each hour of the day it reads.
        errors.removeIf(e -> rolledUpPartition(config, e.path()));
        return errors;
    }

    private static boolean rolledUpPartition(PipelineConfig config, String path) {
        return config.traits().entrySet().stream()
                .anyMatch(trait -> trait.getValue() != null
                        && RollupConfig.declared(trait.getValue().config())
                        && path.equals(JsonPath.field(
                                JsonPath.field(
                                        JsonPath.field(JsonPath.field(JsonPath.ROOT, "traits"), trait.getKey()),
                                        "config"),
                                SensorPartition.CONFIG_KEY)));
    }

    private static void walk(JsonNode node, String path, String message, List<ValidationError> errors) {
        if (node == null) {
            return;
        }
        if (node.isTextual()) {
            boolean usesHour = ArgumentTemplate.parse(node.asText()).stream()
                    .anyMatch(p -> p instanceof ArgumentTemplate.Part.RunValue v
                            && v.name().equals("hour"));
            if (usesHour) {
                errors.add(new ValidationError(path, message));
            }
        } else if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                walk(field.getValue(), JsonPath.field(path, field.getKey()), message, errors);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                walk(node.get(i), JsonPath.index(path, i), message, errors);
            }
        }
    }
}
