package dev.interlock.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.model.backfill.Backfill;
import dev.interlock.model.backfill.BackfillDay;
import dev.interlock.model.backfill.BackfillMode;
import dev.interlock.model.backfill.BackfillOrder;
import dev.interlock.model.backfill.BackfillPlan;
import dev.interlock.model.backfill.BackfillStatus;
import dev.interlock.model.calendar.Calendar;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.json.JsonPath;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.pipeline.ScheduleConfig;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.model.schedule.ExclusionRule;
import dev.interlock.model.schedule.ScheduleWindow;
import dev.interlock.model.validation.ValidationError;
import dev.interlock.store.BackfillDriver;
import dev.interlock.store.Provider;
import dev.interlock.store.RunLogKey;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Backfills (docs/operations.md, "Backfills"): {@code POST /pipelines/{id}/backfills} plans a range of a pipeline's
 * windows ({@link BackfillPlan}) and, unless it is a dry run, records the backfill and starts its first days
 * ({@link BackfillDriver}); {@code GET /backfills[/{id}]} and {@code GET /pipelines/{id}/backfills} read progress;
 * {@code POST /backfills/{id}/cancel} skips the pending days and lets the running ones finish. Each day runs as a
 * rerun that spends no rerun budget and passes its own gate.
 */
final class BackfillRoutes {

    private static final List<String> TEXT_FIELDS = List.of("from", "to", "mode", "order", "reason");
    private static final List<String> FIELDS =
            List.of("from", "to", "schedules", "mode", "maxConcurrency", "order", "cascade", "dryRun", "reason");

    private final Provider provider;
    private final RequestBody body;
    private final Clock clock;
    private final Identifiers ids;
    private final BackfillDriver driver;

    BackfillRoutes(Provider provider, RequestBody body, Clock clock, Identifiers ids) {
        this.provider = provider;
        this.body = body;
        this.clock = clock;
        this.ids = ids;
        this.driver = new BackfillDriver(provider);
    }

    /** A request, read and checked. */
    private record Request(
            LocalDate from,
            LocalDate to,
            List<String> schedules,
            BackfillMode mode,
            int maxConcurrency,
            BackfillOrder order,
            boolean cascade,
            boolean dryRun,
            String reason) {}

    ApiResponse create(ApiRequest request, Map<String, String> path) {
        String id = PathIds.pipelineId(path.get("id"));
        JsonNode document = body.readObject(request, false);
        PipelineConfig pipeline = provider.pipelines().get(id).orElseThrow(() -> PipelineRoutes.notFound(id));
        Instant now = clock.instant();
        Request r = read(document, pipeline, now);
        if (!r.dryRun()) {
            PauseRoutes.refuseIfPaused(provider, pipeline);
            provider.backfills().active().stream()
                    .filter(b -> b.pipelineId().equals(id) && !b.status().isEnded())
                    .findFirst()
                    .ifPresent(b -> {
                        throw ProblemException.of(
                                ProblemType.CONFLICT,
                                "backfill " + b.backfillId() + " of " + id + " is still "
                                        + b.status().wireName() + "; wait for it or cancel it (POST /backfills/"
                                        + b.backfillId() + "/cancel)");
                    });
        }
        List<BackfillDay> days =
                BackfillPlan.plan(pipeline, r.schedules(), r.from(), r.to(), r.mode(), r.order(), facts(pipeline), now);
        Backfill backfill = new Backfill(
                r.dryRun() ? "dry-run" : ids.next(),
                id,
                r.from(),
                r.to(),
                r.schedules(),
                r.mode(),
                r.maxConcurrency(),
                r.order(),
                r.cascade(),
                r.reason(),
                request.caller(),
                now,
                BackfillStatus.RUNNING,
                null,
                null,
                now,
                null,
                false,
                1,
                days);
        if (r.dryRun()) {
            return ApiResponse.json(200, BackfillView.of(backfill, true));
        }
        Map<String, Object> details = BackfillDriver.details(backfill);
        details.put("requestedBy", request.caller());
        details.put("mode", r.mode().wireName());
        details.put("maxConcurrency", r.maxConcurrency());
        details.put("order", r.order().wireName());
        details.put("cascade", r.cascade());
        details.put("schedules", r.schedules());
        details.put("runs", backfill.counts().pending());
        details.put("skipped", backfill.counts().skipped());
        Event requested = BackfillDriver.pipelineEvent(
                backfill,
                EventKind.BACKFILL_REQUESTED,
                "REQUESTED",
                "backfill " + backfill.backfillId() + " of " + r.from() + " to " + r.to() + " asked for by "
                        + request.caller() + ": " + r.reason() + " ("
                        + backfill.counts().pending() + " to run, "
                        + backfill.counts().skipped() + " skipped)",
                details,
                now);
        if (!provider.backfills().create(backfill, requested)) {
            throw ProblemException.of(
                    ProblemType.CONFLICT, "backfill " + backfill.backfillId() + " exists already; retry");
        }
        Backfill started = driver.advance(backfill.backfillId(), clock.instant())
                .map(BackfillDriver.Advance::backfill)
                .orElse(backfill);
        return ApiResponse.json(202, BackfillView.of(started, false));
    }

    ApiResponse get(ApiRequest request, Map<String, String> path) {
        String id = PathIds.backfillId(path.get("backfillId"));
        return ApiResponse.json(200, BackfillView.of(backfill(id), false));
    }

    ApiResponse list(ApiRequest request, Map<String, String> path) {
        List<ValidationError> errors = new ArrayList<>();
        String pipeline = request.text("pipeline", 200, errors);
        if (!errors.isEmpty()) {
            throw ProblemException.invalid("the backfill listing has " + errors.size() + " problem(s)", errors);
        }
        return listOf(pipeline);
    }

    ApiResponse listOfPipeline(ApiRequest request, Map<String, String> path) {
        String id = PathIds.pipelineId(path.get("id"));
        if (provider.pipelines().get(id).isEmpty()) {
            throw PipelineRoutes.notFound(id);
        }
        return listOf(id);
    }

    private ApiResponse listOf(String pipelineId) {
        return ApiResponse.json(
                200,
                Map.of(
                        "items",
                        provider.backfills().list(pipelineId).stream()
                                .map(b -> BackfillView.of(b, false).withoutDays())
                                .toList()));
    }

    ApiResponse cancel(ApiRequest request, Map<String, String> path) {
        String id = PathIds.backfillId(path.get("backfillId"));
        List<ValidationError> errors = new ArrayList<>();
        RequestFields fields = RequestFields.read(body.readObject(request, true), List.of("reason"), errors);
        String reason = fields.prose("reason", false, Backfill.MAX_REASON, errors);
        if (!errors.isEmpty()) {
            throw ProblemException.invalid("the cancel request has " + errors.size() + " problem(s)", errors);
        }
        Backfill current = backfill(id);
        if (current.status().isEnded()) {
            throw ProblemException.of(
                    ProblemType.CONFLICT,
                    "backfill " + id + " is " + current.status().wireName() + "; nothing to cancel");
        }
        Backfill cancelled = driver.cancel(id, request.caller(), reason, clock.instant())
                .map(BackfillDriver.Advance::backfill)
                .orElseThrow(() -> notFound(id));
        return ApiResponse.json(200, BackfillView.of(cancelled, false));
    }

    private Backfill backfill(String id) {
        return provider.backfills().get(id).orElseThrow(() -> notFound(id));
    }

    private static ProblemException notFound(String id) {
        return ProblemException.of(ProblemType.NOT_FOUND, "backfill " + id + " not found");
    }

    /** What the table says of the range's days: run logs by key, exclusions with each calendar read once. */
    private BackfillPlan.DayFacts facts(PipelineConfig pipeline) {
        Map<String, Optional<Calendar>> calendars = new HashMap<>();
        return new BackfillPlan.DayFacts() {
            @Override
            public Optional<RunLogStatus> runLog(LocalDate date, String scheduleId) {
                return provider.runLogs()
                        .get(new RunLogKey(pipeline.name(), date, scheduleId))
                        .map(RunLog::status);
            }

            @Override
            public Optional<String> excluded(LocalDate date) {
                return ExclusionRule.reason(
                        name -> calendars.computeIfAbsent(
                                name, n -> provider.calendars().get(n)),
                        pipeline,
                        date);
            }
        };
    }

    private Request read(JsonNode document, PipelineConfig pipeline, Instant now) {
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
        return new Request(from, to, schedules, mode, maxConcurrency, order, cascade, dryRun, reason);
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

    /**
     * A backfill as the API answers it: the backfill, its counts, and (for a dry run) {@code dryRun: true} with
     * the days it would run and why.
     */
    record BackfillView(
            String backfillId,
            String pipelineId,
            LocalDate from,
            LocalDate to,
            List<String> schedules,
            BackfillMode mode,
            int maxConcurrency,
            BackfillOrder order,
            boolean cascade,
            boolean dryRun,
            String reason,
            String requestedBy,
            Instant requestedAt,
            BackfillStatus status,
            String cancelledBy,
            String cancelReason,
            Instant updatedAt,
            Instant endedAt,
            Backfill.Counts counts,
            List<BackfillDay> days) {

        static BackfillView of(Backfill b, boolean dryRun) {
            return new BackfillView(
                    dryRun ? null : b.backfillId(),
                    b.pipelineId(),
                    b.from(),
                    b.to(),
                    b.schedules(),
                    b.mode(),
                    b.maxConcurrency(),
                    b.order(),
                    b.cascade(),
                    dryRun,
                    b.reason(),
                    b.requestedBy(),
                    b.requestedAt(),
                    dryRun ? null : b.status(),
                    b.cancelledBy(),
                    b.cancelReason(),
                    b.updatedAt(),
                    b.endedAt(),
                    b.counts(),
                    b.days());
        }

        /** The listing's form: no days (a backfill can hold 500). */
        BackfillView withoutDays() {
            return new BackfillView(
                    backfillId,
                    pipelineId,
                    from,
                    to,
                    schedules,
                    mode,
                    maxConcurrency,
                    order,
                    cascade,
                    dryRun,
                    reason,
                    requestedBy,
                    requestedAt,
                    status,
                    cancelledBy,
                    cancelReason,
                    updatedAt,
                    endedAt,
                    counts,
                    null);
        }
    }
}
