package dev.interlock.streamrouter;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import dev.interlock.deps.log.LogContext;
import dev.interlock.deps.log.StructuredLog;
import dev.interlock.model.runtime.TableDefinition;

import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.schedule.ScheduleWindow;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Routes a batch of stream records (docs/architecture.md): each marker insert starts its own execution, stale markers are skipped
 * unless they replay, and each record's outcome is independent of the others.
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
    public record Started(String sequenceNumber, String executionName, String executionArn) implements RecordOutcome {
    }

    /** The execution exists already: the record was delivered before. */
    public record AlreadyStarted(String sequenceNumber, String executionName) implements RecordOutcome {
    }

    /** Nothing to do (not a marker insert, or a stale marker). */
    public record Skipped(String sequenceNumber, String reason) implements RecordOutcome {
    }

    /** To be delivered again (and, after the mapping's retries, sent to its on-failure destination). */
    public record Failed(String sequenceNumber, String reason) implements RecordOutcome {
    }

    private final ExecutionStarter starter;
    private final RouterSettings settings;
    private final Clock clock;
    private final StructuredLog log;
    private final Function<String, Optional<PipelineConfig>> pipelines;

    /** A router that reads no pipeline: a marker without a date means today in UTC. */
    public MarkerRouter(ExecutionStarter starter, RouterSettings settings, Clock clock, StructuredLog log) {
        this(starter, settings, clock, log, pipelineId -> Optional.empty());
    }

    /**
     * @param pipelines reads a pipeline's config; asked only for a marker without a date, which means today in the
     *                  pipeline's schedule zone (markers Interlock writes always carry their date, so the router
     *                  normally reads nothing)
     */
    public MarkerRouter(ExecutionStarter starter, RouterSettings settings, Clock clock, StructuredLog log,
                        Function<String, Optional<PipelineConfig>> pipelines) {
        this.starter = starter;
        this.settings = settings;
        this.clock = clock;
        this.log = log;
        this.pipelines = pipelines;
    }

    /** The outcome of every record, in batch order. */
    public List<RecordOutcome> route(List<DynamodbStreamRecord> records) {
        Instant now = clock.instant();
        LocalDate today = LocalDate.ofInstant(now, ZoneOffset.UTC);
        Map<String, Optional<PipelineConfig>> read = new HashMap<>();
        MarkerRecord.CurrentDate currentDate = (pipelineId, scheduleId) -> read
                .computeIfAbsent(pipelineId, pipelines)
                .map(config -> ScheduleWindow.currentDate(config, scheduleId, now))
                // An unknown pipeline fails in its execution anyway; UTC names the day it was meant for.
                .orElse(today);
        List<RecordOutcome> outcomes = new ArrayList<>(records.size());
        for (DynamodbStreamRecord record : records) {
            outcomes.add(routeOne(record, today, currentDate));
        }
        return outcomes;
    }

    private RecordOutcome routeOne(DynamodbStreamRecord record, LocalDate today, MarkerRecord.CurrentDate currentDate) {
        String sequenceNumber = record.getDynamodb() == null ? null : record.getDynamodb().getSequenceNumber();
        try {
            return switch (MarkerRecord.read(record, TableDefinition.INTERLOCK, currentDate)) {
                case MarkerRecord.NotAMarker notAMarker -> {
                    log.warn(LogContext.NONE, "record skipped: not a marker insert",
                            Map.of("sequenceNumber", String.valueOf(sequenceNumber), "reason", notAMarker.reason()));
                    yield new Skipped(sequenceNumber, notAMarker.reason());
                }
                case MarkerRecord.Unreadable unreadable -> {
                    log.error(LogContext.NONE, "marker unreadable",
                            Map.of("sequenceNumber", String.valueOf(sequenceNumber), "reason", unreadable.reason()), null);
                    yield new Failed(sequenceNumber, unreadable.reason());
                }
                case MarkerRecord.Routable routable -> start(sequenceNumber, routable.marker(), today);
            };
        } catch (RuntimeException e) {
            // A defect must cost this record a retry, not the whole batch.
            log.error(LogContext.NONE, "record failed", Map.of("sequenceNumber", String.valueOf(sequenceNumber)), e);
            return new Failed(sequenceNumber, e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    private RecordOutcome start(String sequenceNumber, MarkerRecord marker, LocalDate today) {
        String name = marker.executionName();
        LogContext context = LogContext.of(marker.pipelineId(), marker.scheduleId(), marker.date().toString()).withExecution(name);
        Map<String, String> fields = Map.of("sequenceNumber", String.valueOf(sequenceNumber),
                "markerSource", marker.source(), "replay", Boolean.toString(marker.replay()), "markerSk", marker.markerSk());
        LocalDate oldestFresh = today.minusDays(settings.staleMarkerDays());
        if (marker.date().isBefore(oldestFresh) && !marker.replay()) {
            String reason = "marker of " + marker.date() + " is older than " + settings.staleMarkerDays() + " days";
            log.info(context, "stale marker skipped", fields);
            return new Skipped(sequenceNumber, reason);
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
}
