package dev.interlock.streamrouter;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import dev.interlock.log.LogContext;
import dev.interlock.log.StructuredLog;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.model.marker.Marker;
import dev.interlock.model.pause.Pause;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.runtime.TableDefinition;
import dev.interlock.model.schedule.ScheduleWindow;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Routes a batch of stream records (docs/architecture.md): each marker insert starts its own execution, stale markers are skipped
 * unless they replay, and each record's outcome is independent of the others. A marker that starts nothing leaves a
 * {@code MARKER_SKIPPED} event with its reason in its pipeline's trail; an unreadable one whose pipeline cannot be
 * told, or whose event could not be stored, is reported failed instead, so that it is retried and, failing again,
 * reaches the mapping's on-failure destination. Never neither.
 */
public final class MarkerRouter {

    /** What became of one record. {@code sequenceNumber} identifies it in a partial batch response. */
    public sealed interface RecordOutcome {
        String sequenceNumber();

        /** Whether Lambda should deliver the record again. */
        default boolean failed() {
            return this instanceof Failed;
        }
    }

    /** An execution was started. */
    public record Started(String sequenceNumber, String executionName, String executionArn) implements RecordOutcome {}

    /** The execution exists already: the record was delivered before. */
    public record AlreadyStarted(String sequenceNumber, String executionName) implements RecordOutcome {}

    /** Nothing to do (not a marker insert, or a stale marker). */
    public record Skipped(String sequenceNumber, String reason) implements RecordOutcome {}

    /** To be delivered again (and, after the mapping's retries, sent to its on-failure destination). */
    public record Failed(String sequenceNumber, String reason) implements RecordOutcome {}

    /** Where a marker that starts no execution is recorded. */
    @FunctionalInterface
    public interface SkipLog {
        /** Nowhere: the router's skips are only logged and unreadable markers reported failed (hand-built tests). */
        SkipLog NOWHERE = event -> false;

        /** Stores {@code event}; false if there is nowhere to store it. A store failure throws. */
        boolean record(Event event);
    }

    private final ExecutionStarter starter;
    private final RouterSettings settings;
    private final Clock clock;
    private final StructuredLog log;
    private final Function<String, Optional<PipelineConfig>> pipelines;
    private final SkipLog skips;
    private final Function<String, Optional<Pause>> pauses;

    /** A router that reads no pipeline and records no skip: a marker without a date means today in UTC. */
    public MarkerRouter(ExecutionStarter starter, RouterSettings settings, Clock clock, StructuredLog log) {
        this(
                starter,
                settings,
                clock,
                log,
                pipelineId -> Optional.empty(),
                SkipLog.NOWHERE,
                pipelineId -> Optional.empty());
    }

    /**
     * @param pipelines reads a pipeline's config; asked only for a marker without a date, which means today in the
     *                  pipeline's schedule zone (markers Interlock writes always carry their date, so the router
     *                  normally reads nothing)
     * @param skips     records the markers that start no execution in their pipeline's trail
     * @param pauses    reads a pipeline's pause: a paused pipeline's markers start nothing but the continuations of
     *                  days already running (read once per pipeline and batch)
     */
    public MarkerRouter(
            ExecutionStarter starter,
            RouterSettings settings,
            Clock clock,
            StructuredLog log,
            Function<String, Optional<PipelineConfig>> pipelines,
            SkipLog skips,
            Function<String, Optional<Pause>> pauses) {
        this.starter = starter;
        this.settings = settings;
        this.clock = clock;
        this.log = log;
        this.pipelines = pipelines;
        this.skips = skips;
        this.pauses = pauses;
    }

    /** The outcome of every record, in batch order. */
    public List<RecordOutcome> route(List<DynamodbStreamRecord> records) {
        Instant now = clock.instant();
        LocalDate today = LocalDate.ofInstant(now, ZoneOffset.UTC);
        Map<String, Optional<PipelineConfig>> read = new HashMap<>();
        MarkerRecord.CurrentDate currentDate = (pipelineId, scheduleId) -> read.computeIfAbsent(pipelineId, pipelines)
                .map(config -> ScheduleWindow.currentDate(config, scheduleId, now))
                // An unknown pipeline fails in its execution anyway; UTC names the day it was meant for.
                .orElse(today);
        Map<String, Optional<Pause>> paused = new HashMap<>();
        Function<String, Optional<Pause>> pauseOf = pipelineId -> paused.computeIfAbsent(pipelineId, pauses);
        List<RecordOutcome> outcomes = new ArrayList<>(records.size());
        for (DynamodbStreamRecord record : records) {
            outcomes.add(routeOne(record, now, today, currentDate, pauseOf));
        }
        return outcomes;
    }

    private RecordOutcome routeOne(
            DynamodbStreamRecord record,
            Instant now,
            LocalDate today,
            MarkerRecord.CurrentDate currentDate,
            Function<String, Optional<Pause>> pauseOf) {
        String sequenceNumber =
                record.getDynamodb() == null ? null : record.getDynamodb().getSequenceNumber();
        try {
            return switch (MarkerRecord.read(record, TableDefinition.INTERLOCK, currentDate)) {
                case MarkerRecord.NotAMarker notAMarker -> {
                    log.warn(
                            LogContext.NONE,
                            "record skipped: not a marker insert",
                            Map.of("sequenceNumber", String.valueOf(sequenceNumber), "reason", notAMarker.reason()));
                    yield new Skipped(sequenceNumber, notAMarker.reason());
                }
                case MarkerRecord.Unreadable unreadable -> unreadable(record, sequenceNumber, unreadable.reason(), now);
                case MarkerRecord.Routable routable -> start(sequenceNumber, routable.marker(), now, today, pauseOf);
            };
        } catch (RuntimeException e) {
            // A defect must cost this record a retry, not the whole batch.
            log.error(LogContext.NONE, "record failed", Map.of("sequenceNumber", String.valueOf(sequenceNumber)), e);
            return new Failed(sequenceNumber, e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    /**
     * A marker no retry can make readable (the stream record is what was written): recorded as skipped in its
     * pipeline's trail, or failed towards the on-failure destination when it names no pipeline or the store failed.
     */
    private RecordOutcome unreadable(DynamodbStreamRecord record, String sequenceNumber, String reason, Instant now) {
        String sk = key(record, TableDefinition.INTERLOCK.sortKey());
        String pipelineId = TableKeys.pipelineIdOf(key(record, TableDefinition.INTERLOCK.partitionKey()));
        Map<String, String> fields = Map.of(
                "sequenceNumber", String.valueOf(sequenceNumber), "reason", reason, "markerSk", String.valueOf(sk));
        log.error(
                pipelineId == null ? LogContext.NONE : LogContext.of(pipelineId, null, null),
                "marker unreadable",
                fields,
                null);
        if (pipelineId != null
                && skips.record(new Event(
                        EventKind.MARKER_SKIPPED,
                        pipelineId,
                        null,
                        null,
                        null,
                        null,
                        "UNREADABLE",
                        "marker " + sk + " is unreadable and starts no execution: " + reason,
                        Map.of("markerSk", sk, "sequenceNumber", String.valueOf(sequenceNumber), "reason", reason),
                        now))) {
            return new Skipped(sequenceNumber, reason);
        }
        return new Failed(sequenceNumber, reason);
    }

    private static String key(DynamodbStreamRecord record, String name) {
        var keys = record.getDynamodb().getKeys();
        var value = keys == null ? null : keys.get(name);
        return value == null ? null : value.getS();
    }

    private RecordOutcome start(
            String sequenceNumber,
            MarkerRecord marker,
            Instant now,
            LocalDate today,
            Function<String, Optional<Pause>> pauseOf) {
        String name = marker.executionName();
        LogContext context = LogContext.of(
                        marker.pipelineId(), marker.scheduleId(), marker.date().toString())
                .withExecution(name);
        Map<String, String> fields = Map.of(
                "sequenceNumber",
                String.valueOf(sequenceNumber),
                "markerSource",
                marker.source(),
                "replay",
                Boolean.toString(marker.replay()),
                "markerSk",
                marker.markerSk());
        if (Marker.isStale(marker.date(), marker.source(), marker.replay(), today, settings.staleMarkerDays())) {
            String reason = "marker of " + marker.date() + " is older than " + settings.staleMarkerDays() + " days";
            log.info(context, "stale marker skipped", fields);
            return skip(
                    sequenceNumber,
                    marker,
                    "STALE",
                    reason,
                    "marker " + marker.markerSk() + " starts no execution: " + reason + " and is no replay",
                    Map.of(),
                    now);
        }
        Optional<Pause> pause =
                Marker.continuesAnExecution(marker.source()) ? Optional.empty() : pauseOf.apply(marker.pipelineId());
        if (pause.isPresent()) {
            String reason = "pipeline " + pause.get().describe();
            log.info(context, "marker of a paused pipeline skipped", fields);
            return skip(
                    sequenceNumber,
                    marker,
                    "PAUSED",
                    reason,
                    "marker " + marker.markerSk() + " (" + marker.source() + ") starts no execution: " + reason,
                    Map.of(
                            "markerSource", marker.source(),
                            "reason", pause.get().reason(),
                            "pausedBy", pause.get().pausedBy(),
                            "pausedAt", pause.get().pausedAt().toString()),
                    now);
        }
        return switch (starter.start(name, marker.executionInput())) {
            case ExecutionStarter.Started started -> {
                log.info(context, "execution started", fields);
                yield new Started(sequenceNumber, name, started.executionArn());
            }
            case ExecutionStarter.AlreadyStarted already -> {
                log.info(context, "execution already started: record delivered again", fields);
                yield new AlreadyStarted(sequenceNumber, name);
            }
            case ExecutionStarter.Failed failed -> {
                log.error(context, "execution not started: " + failed.reason(), fields, null);
                yield new Failed(sequenceNumber, failed.reason());
            }
        };
    }

    /**
     * Records that {@code marker} starts no execution ({@code MARKER_SKIPPED} with {@code status}): its key, the stream
     * record and the reason, and {@code more} details (which may word the reason for the trail), then answers skipped.
     */
    private RecordOutcome skip(
            String sequenceNumber,
            MarkerRecord marker,
            String status,
            String reason,
            String message,
            Map<String, Object> more,
            Instant now) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("markerSk", marker.markerSk());
        details.put("sequenceNumber", String.valueOf(sequenceNumber));
        details.put("reason", reason);
        details.putAll(more);
        skips.record(new Event(
                EventKind.MARKER_SKIPPED,
                marker.pipelineId(),
                marker.scheduleId(),
                marker.date(),
                null,
                null,
                status,
                message,
                details,
                now));
        return new Skipped(sequenceNumber, reason);
    }
}
