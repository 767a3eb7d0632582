package dev.interlock.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.model.backfill.Backfill;
import dev.interlock.model.backfill.BackfillMode;
import dev.interlock.model.backfill.BackfillOrder;
import dev.interlock.model.backfill.BackfillPlan;
import dev.interlock.model.json.JsonPath;
import dev.interlock.model.json.ValidationError;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.pipeline.ScheduleConfig;
import dev.interlock.model.schedule.ScheduleWindow;
import java.time.Instant;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A backfill request's body, read and checked against its pipeline: every problem is a field error naming its path, all
 * reported at once (docs/api.md, {@code POST /pipelines/{id}/backfills}).
 */
record BackfillRequest(
        LocalDate from,
        LocalDate to,
        List<String> schedules,
        BackfillMode mode,
        int maxConcurrency,
        BackfillOrder order,
        boolean cascade,
        boolean dryRun,
        String reason) {

    private static final List<String> TEXT_FIELDS = List.of("from", "to", "mode", "order", "reason");
    private static final List<String> FIELDS =
            List.of("from", "to", "schedules", "mode", "maxConcurrency", "order", "cascade", "dryRun", "reason");

    /** Reads {@code document}; a 400 naming every bad field. */
    static BackfillRequest read(JsonNode document, PipelineConfig pipeline, Instant now) {
        List<ValidationError> errors = new ArrayList<>();
        ObjectNode text = ((ObjectNode) document).deepCopy();
        List<String> unknown = new ArrayList<>();
        document.fieldNames().forEachRemaining(name -> {
            if (FIELDS.stream().noneMatch(f -> f.equalsIgnoreCase(name))) {
                unknown.add(name);
            }
        });
        for (String name : unknown) {
            errors.add(new ValidationError(
                    JsonPath.field(JsonPath.ROOT, name), "unknown field; allowed: " + String.join(", ", FIELDS)));
            text.remove(name);
        }
        JsonNode schedulesNode = take(text, "schedules");
        JsonNode concurrencyNode = take(text, "maxConcurrency");
        boolean cascade = flag(take(text, "cascade"), "cascade", errors);
        boolean dryRun = flag(take(text, "dryRun"), "dryRun", errors);
        RequestFields fields = RequestFields.read(text, TEXT_FIELDS, errors);
        LocalDate from = required(fields.date("from", errors), fields, "from", errors);
        LocalDate to = required(fields.date("to", errors), fields, "to", errors);
        BackfillMode mode = choice(fields, "mode", BackfillMode.MISSING, BackfillMode::fromJson, errors);
        BackfillOrder order = choice(fields, "order", BackfillOrder.OLDEST, BackfillOrder::fromJson, errors);
        String reason = fields.prose("reason", true, Backfill.MAX_REASON, errors);
        int maxConcurrency = concurrency(concurrencyNode, errors);
        List<String> schedules = schedules(schedulesNode, pipeline, errors);
        if (from != null && to != null) {
            String toPath = JsonPath.field(JsonPath.ROOT, "to");
            if (to.isBefore(from)) {
                errors.add(new ValidationError(toPath, to + " is before from (" + from + ")"));
            } else if (ChronoUnit.DAYS.between(from, to) + 1 > Backfill.MAX_DAYS) {
                errors.add(new ValidationError(
                        toPath,
                        "the range " + from + " to " + to + " spans " + (ChronoUnit.DAYS.between(from, to) + 1)
                                + " days; a backfill spans at most " + Backfill.MAX_DAYS));
            } else if (schedules != null && !schedules.isEmpty()) {
                LocalDate today = schedules.stream()
                        .map(s -> ScheduleWindow.currentDate(pipeline, s, now))
                        .max(LocalDate::compareTo)
                        .orElseThrow();
                if (to.isAfter(today)) {
                    errors.add(new ValidationError(
                            toPath, to + " is in the future (today is " + today + " in the pipeline's zone)"));
                } else {
                    int windows = BackfillPlan.windows(pipeline, schedules, from, to);
                    if (windows > Backfill.MAX_WINDOWS) {
                        errors.add(new ValidationError(
                                toPath,
                                "the range holds more than " + Backfill.MAX_WINDOWS
                                        + " windows of the schedules asked for; split it or name fewer schedules"));
                    }
                }
            }
        }
        if (!errors.isEmpty()) {
            throw ProblemException.invalid("the backfill request has " + errors.size() + " problem(s)", errors);
        }
        return new BackfillRequest(from, to, schedules, mode, maxConcurrency, order, cascade, dryRun, reason);
    }

    private static JsonNode take(ObjectNode node, String name) {
        String actual = null;
        for (var it = node.fieldNames(); it.hasNext(); ) {
            String field = it.next();
            if (field.equalsIgnoreCase(name)) {
                actual = field;
            }
        }
        return actual == null ? null : node.remove(actual);
    }

    private static <T> T required(T value, RequestFields fields, String name, List<ValidationError> errors) {
        if (value == null && fields.text(name) == null) {
            errors.add(new ValidationError(JsonPath.field(JsonPath.ROOT, name), "is required (a date YYYY-MM-DD)"));
        }
        return value;
    }

    private static <T> T choice(
            RequestFields fields,
            String name,
            T fallback,
            java.util.function.Function<String, T> parse,
            List<ValidationError> errors) {
        String raw = fields.text(name);
        if (raw == null) {
            return fallback;
        }
        try {
            return parse.apply(raw);
        } catch (IllegalArgumentException e) {
            errors.add(new ValidationError(JsonPath.field(JsonPath.ROOT, name), e.getMessage()));
            return fallback;
        }
    }

    private static boolean flag(JsonNode node, String name, List<ValidationError> errors) {
        if (node == null || node.isNull()) {
            return false;
        }
        if (!node.isBoolean()) {
            errors.add(new ValidationError(
                    JsonPath.field(JsonPath.ROOT, name),
                    "expected true or false, got " + node.getNodeType().name().toLowerCase(Locale.ROOT)));
            return false;
        }
        return node.booleanValue();
    }

    private static int concurrency(JsonNode node, List<ValidationError> errors) {
        if (node == null || node.isNull()) {
            return 1;
        }
        String path = JsonPath.field(JsonPath.ROOT, "maxConcurrency");
        if (!node.isIntegralNumber()) {
            errors.add(new ValidationError(
                    path,
                    "expected a whole number, got " + node.getNodeType().name().toLowerCase(Locale.ROOT)));
            return 1;
        }
        int value = node.asInt();
        if (!node.canConvertToInt() || value < 1 || value > Backfill.MAX_CONCURRENCY) {
            errors.add(new ValidationError(
                    path, "must be between 1 and " + Backfill.MAX_CONCURRENCY + ", got " + node.asText()));
            return 1;
        }
        return value;
    }

    /** The schedules asked for, each one the pipeline declares; all of them when none is named. */
    private static List<String> schedules(JsonNode node, PipelineConfig pipeline, List<ValidationError> errors) {
        List<String> declared =
                pipeline.effectiveSchedules().stream().map(ScheduleConfig::name).toList();
        if (node == null || node.isNull()) {
            return declared;
        }
        String path = JsonPath.field(JsonPath.ROOT, "schedules");
        if (!node.isArray() || node.isEmpty()) {
            errors.add(new ValidationError(path, "expected a non-empty list of schedule names, e.g. [\"daily\"]"));
            return null;
        }
        List<String> names = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            JsonNode item = node.get(i);
            String itemPath = JsonPath.index(path, i);
            if (!item.isTextual()) {
                errors.add(new ValidationError(itemPath, "expected a schedule name"));
            } else if (!declared.contains(item.asText())) {
                errors.add(new ValidationError(
                        itemPath,
                        "'" + item.asText() + "' is not a schedule of " + pipeline.name() + "; declared: "
                                + String.join(", ", declared)));
            } else if (!names.contains(item.asText())) {
                names.add(item.asText());
            }
        }
        return names;
    }
}
