package dev.interlock.local.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.model.runtime.TableDefinition;
import java.io.IOException;
import java.time.Clock;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;

/**
 * What {@code interlock up} tells a person while the system runs: one short line per evaluation request, readiness
 * verdict, trigger, completion or failure of a pipeline day, read from the table's stream (every write of the
 * system passes there). The functions' own JSON logs go elsewhere; this is the story, not the detail.
 */
public final class Narration implements Consumer<Record> {

    /** Events worth a line: the verdicts and decisions, not each trait or run-state step. */
    private static final Set<EventKind> TOLD = EnumSet.of(
            EventKind.READINESS_CHECKED,
            EventKind.PROCEEDED_DEGRADED,
            EventKind.FORCED_READY,
            EventKind.PROCEEDED_FORCED,
            EventKind.TRIGGER_FIRED,
            EventKind.TRIGGER_FAILED,
            EventKind.RETRY_SCHEDULED,
            EventKind.RETRY_EXHAUSTED,
            EventKind.VALIDATION_EXHAUSTED,
            EventKind.SLA_BREACHED,
            EventKind.EXCLUDED,
            EventKind.CASCADE_NOTIFIED,
            EventKind.RERUN_REQUESTED,
            EventKind.UPSTREAM_RERUN,
            EventKind.MONITORING_DRIFT_DETECTED,
            EventKind.LATE_ARRIVAL_DETECTED,
            EventKind.DRY_RUN_WOULD_TRIGGER);

    private static final Set<String> FINAL_RUN_LOG = Set.of(
            RunLogStatus.COMPLETED.wireName(), RunLogStatus.FAILED.wireName(), RunLogStatus.CANCELLED.wireName());
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");
    private static final ObjectMapper JSON = InterlockJson.json();

    private final Consumer<String> out;
    private final Clock clock;

    /** @param clock the system's (scaled) clock: lines carry the time the functions see */
    public Narration(Consumer<String> out, Clock clock) {
        this.out = out;
        this.clock = clock;
    }

    @Override
    public void accept(Record record) {
        Map<String, AttributeValue> image = record.dynamodb().newImage();
        if (image == null || image.get(TableDefinition.SK) == null) {
            return;
        }
        String sk = image.get(TableDefinition.SK).s();
        if (record.eventNameAsString().equals("INSERT") && sk.startsWith(TableKeys.MARKER_PREFIX)) {
            marker(image);
        } else if (record.eventNameAsString().equals("INSERT") && sk.startsWith(TableKeys.EVENT_PREFIX)) {
            event(data(image));
        } else if (sk.startsWith(TableKeys.RUNLOG_PREFIX)) {
            runLog(
                    data(image),
                    record.dynamodb().oldImage() == null
                            ? null
                            : data(record.dynamodb().oldImage()));
        }
    }

    private void marker(Map<String, AttributeValue> image) {
        String source = text(image.get("source"));
        boolean replay = image.get("replay") != null
                && Boolean.TRUE.equals(image.get("replay").bool());
        say(
                text(image.get("pipelineId")),
                text(image.get("date")),
                text(image.get("scheduleId")),
                "evaluation requested (" + source + " marker" + (replay ? ", replay" : "") + ")");
    }

    private void event(JsonNode e) {
        EventKind kind;
        try {
            kind = EventKind.fromJson(e.path("kind").asText());
        } catch (IllegalArgumentException unknown) {
            return;
        }
        if (!TOLD.contains(kind)) {
            return;
        }
        String status = e.path("status").asText("");
        String message = e.path("message").asText("");
        String what = switch (kind) {
            case READINESS_CHECKED -> status.replace('_', ' ') + (message.isEmpty() ? "" : " (" + message + ")");
            case TRIGGER_FIRED ->
                "triggered" + (message.isEmpty() ? "" : ": " + message) + (status.isEmpty() ? "" : " (" + status + ")");
            case CASCADE_NOTIFIED -> "cascade" + (message.isEmpty() ? "" : ": " + message);
            default ->
                kind.wireName().toLowerCase(java.util.Locale.ROOT).replace('_', ' ')
                        + (message.isEmpty() ? "" : ": " + message)
                        + (status.isEmpty() ? "" : " (" + status + ")");
        };
        say(
                e.path("pipelineId").asText(),
                e.path("date").asText(),
                e.path("scheduleId").asText(),
                what);
    }

    private void runLog(JsonNode now, JsonNode before) {
        String status = now.path("status").asText();
        if (!FINAL_RUN_LOG.contains(status)
                || (before != null && status.equals(before.path("status").asText()))) {
            return;
        }
        int failedAttempts = now.path("attemptNumber").asInt();
        String attempts = failedAttempts == 0 ? "" : " after " + failedAttempts + " failed attempt(s)";
        String failure = !status.equals(RunLogStatus.COMPLETED.wireName()) && now.hasNonNull("failureMessage")
                ? ": " + now.get("failureMessage").asText()
                : "";
        say(
                now.path("pipelineId").asText(),
                now.path("date").asText(),
                now.path("scheduleId").asText(),
                status + attempts + failure);
    }

    private void say(String pipeline, String date, String schedule, String what) {
        String time = LocalTime.ofInstant(clock.instant(), ZoneOffset.UTC).format(TIME);
        out.accept(String.format("%s  %-24s %s %-8s %s", time, pipeline, date, schedule, what));
    }

    private static JsonNode data(Map<String, AttributeValue> image) {
        AttributeValue data = image.get(TableDefinition.DATA);
        if (data == null || data.s() == null) {
            return JSON.createObjectNode();
        }
        try {
            return JSON.readTree(data.s());
        } catch (IOException e) {
            return JSON.createObjectNode();
        }
    }

    private static String text(AttributeValue value) {
        return value == null || value.s() == null ? "-" : value.s();
    }
}
