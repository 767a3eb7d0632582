package dev.interlock.streamrouter;

import dev.interlock.log.LogContext;
import dev.interlock.log.StructuredLog;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.lineage.LineageEventType;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.pipeline.TraitConfig;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.store.RunLogKey;
import io.openlineage.client.OpenLineage;
import io.openlineage.client.transports.Transport;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Emits the OpenLineage run events of each recorded run change (docs/openlineage.md). Emission never fails the stream
 * batch nor the run: an event that cannot be sent is logged and leaves a {@code LINEAGE_NOT_SENT} event with its
 * reason in the pipeline's trail. A change delivered twice emits the same events twice (same run id and type), which
 * OpenLineage consumers treat as one.
 */
public final class LineageEmitter {

    /** Sends one built event; throws when it could not be delivered. */
    @FunctionalInterface
    public interface Sink {
        void send(OpenLineage.RunEvent event);

        /**
         * Through one of the official client's transports. Not through {@code OpenLineageClient}, whose only addition
         * is Micrometer metrics this function does not ship.
         */
        static Sink of(Transport transport) {
            return transport::emit;
        }

        /**
         * To every one of {@code sinks} (by what each is, e.g. {@code http}), each tried whatever became of the others;
         * throws when any could not be sent, naming each that failed and why.
         */
        static Sink each(Map<String, Sink> sinks) {
            if (sinks.size() == 1) {
                return sinks.values().iterator().next();
            }
            Map<String, Sink> all = new LinkedHashMap<>(sinks);
            return event -> {
                List<String> failed = new ArrayList<>();
                all.forEach((name, sink) -> {
                    try {
                        sink.send(event);
                    } catch (RuntimeException e) {
                        failed.add("to " + name + ": "
                                + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
                    }
                });
                if (!failed.isEmpty()) {
                    throw new IllegalStateException(String.join("; ", failed));
                }
            };
        }
    }

    /** Emits nothing (no receiver configured). */
    public static final LineageEmitter NONE = new LineageEmitter(
            null,
            "interlock",
            Clock.systemUTC(),
            StructuredLog.forName("stream-router"),
            p -> Optional.empty(),
            k -> Optional.empty(),
            MarkerRouter.SkipLog.NOWHERE);

    private final Sink sink;
    private final LineageEvents events;
    private final Clock clock;
    private final StructuredLog log;
    private final Function<String, Optional<PipelineConfig>> pipelines;
    private final Function<RunLogKey, Optional<RunLog>> runLogs;
    private final MarkerRouter.SkipLog trail;

    /**
     * @param sink where events go (null: nowhere)
     * @param trail where an event that could not be sent is recorded
     */
    public LineageEmitter(
            Sink sink,
            String namespace,
            Clock clock,
            StructuredLog log,
            Function<String, Optional<PipelineConfig>> pipelines,
            Function<RunLogKey, Optional<RunLog>> runLogs,
            MarkerRouter.SkipLog trail) {
        this.sink = sink;
        this.events = new LineageEvents(namespace);
        this.clock = clock;
        this.log = log;
        this.pipelines = pipelines;
        this.runLogs = runLogs;
        this.trail = trail;
    }

    /** Whether this emitter sends anything. */
    public boolean emits() {
        return sink != null;
    }

    /** Emits the events of {@code change}; never throws. Answers the event types sent. */
    public List<LineageEventType> emit(RunChange change) {
        List<LineageEventType> sent = new ArrayList<>();
        if (sink == null) {
            return sent;
        }
        RunState run = change.after();
        List<LineageEventType> types = change.lineageEvents();
        if (types.isEmpty()) {
            return sent;
        }
        List<LineageEvents.Upstream> upstreams = upstreams(run);
        for (LineageEventType type : types) {
            Instant at = at(type, change);
            try {
                sink.send(events.of(type, run, at == null ? clock.instant() : at, upstreams));
                sent.add(type);
            } catch (RuntimeException e) {
                notSent(run, type, e);
            }
        }
        return sent;
    }

    /**
     * When the event happened: a start the change reports with more (a synchronous job, completed or failed inside its
     * trigger call) when the trigger began; a completion when the run's day was recorded COMPLETED; else the change.
     */
    private static Instant at(LineageEventType type, RunChange change) {
        RunState run = change.after();
        if (type == LineageEventType.START
                && change.before() != null
                && change.before().status() == RunStatus.TRIGGERING
                && run.status() != RunStatus.RUNNING) {
            return change.before().updatedAt();
        }
        if (type == LineageEventType.COMPLETE && run.dayCompletedAt() != null) {
            return run.dayCompletedAt();
        }
        return run.updatedAt();
    }

    /** The runs of the upstream pipelines this run's readiness waited for: their run logs of the same day. */
    private List<LineageEvents.Upstream> upstreams(RunState run) {
        try {
            Optional<PipelineConfig> config = pipelines.apply(run.pipelineId());
            if (config.isEmpty()) {
                return List.of();
            }
            List<LineageEvents.Upstream> found = new ArrayList<>();
            for (TraitConfig trait : config.get().traits().values()) {
                Optional<String> upstream = trait == null ? Optional.empty() : trait.upstreamPipeline();
                if (upstream.isEmpty()) {
                    continue;
                }
                String schedule = trait.upstreamSchedule().orElse(run.scheduleId());
                runLogs.apply(new RunLogKey(upstream.get(), run.date(), schedule))
                        .filter(l -> l.runId() != null)
                        .map(l -> new LineageEvents.Upstream(upstream.get(), l.runId()))
                        .filter(u -> !found.contains(u))
                        .ifPresent(found::add);
            }
            return found;
        } catch (RuntimeException e) {
            log.warn(
                    context(run),
                    "upstream runs not read for OpenLineage; the events go without them",
                    Map.of("error", String.valueOf(e)));
            return List.of();
        }
    }

    private void notSent(RunState run, LineageEventType type, RuntimeException e) {
        String reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("eventType", type.name());
        details.put("reason", reason);
        log.warn(context(run), "OpenLineage event not sent", details);
        try {
            trail.record(new Event(
                    EventKind.LINEAGE_NOT_SENT,
                    run.pipelineId(),
                    run.scheduleId(),
                    run.date(),
                    run.runId(),
                    null,
                    type.name(),
                    "OpenLineage " + type.name() + " event not sent: " + reason,
                    details,
                    clock.instant()));
        } catch (RuntimeException storeFailed) {
            log.error(context(run), "LINEAGE_NOT_SENT event not stored", details, storeFailed);
        }
    }

    private static LogContext context(RunState run) {
        return LogContext.of(run.pipelineId(), run.scheduleId(), String.valueOf(run.date()))
                .withRun(run.runId())
                .withExecution(run.executionName());
    }
}
