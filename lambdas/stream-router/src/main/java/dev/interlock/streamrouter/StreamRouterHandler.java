package dev.interlock.streamrouter;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import dev.interlock.log.LogContext;
import dev.interlock.log.StructuredLog;
import dev.interlock.model.pause.Pause;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.runtime.InterlockFunction;
import dev.interlock.model.runtime.TableDefinition;
import dev.interlock.wiring.Deps;
import dev.interlock.wiring.priming.Priming;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import software.amazon.awssdk.services.sfn.SfnClient;

/** Lambda entry of the table stream: one execution per marker insert, partial batch failures by sequence number. */
public final class StreamRouterHandler implements RequestHandler<DynamodbEvent, StreamsEventResponse> {

    private final MarkerRouter router;
    private final LineageEmitter lineage;
    private final StructuredLog log;

    /** Lambda entry: the container's shared, lazily built deps (the Step Functions client is created on the first marker). */
    public StreamRouterHandler() {
        this(Deps.forFunction(InterlockFunction.STREAM_ROUTER));
        // Before a SnapStart snapshot (or in provisioned-concurrency init): rehearse the bundled priming events.
        Priming.onInit(Deps.get(), InterlockFunction.STREAM_ROUTER, this, DynamodbEvent.class);
    }

    /** Over explicit deps (local runtime, tests). */
    public StreamRouterHandler(Deps deps) {
        this(deps, LineageEmitters.of(deps));
    }

    private StreamRouterHandler(Deps deps, LineageEmitter lineage) {
        // The store is created on the first marker: its pipeline's pause is read before an execution starts.
        this(
                deps.clients()::stepFunctions,
                RouterSettings.from(deps.environment()),
                deps.clock(),
                deps.log("stream-router"),
                pipelineId -> deps.provider().pipelines().get(pipelineId),
                event -> {
                    deps.provider().events().append(event);
                    return true;
                },
                pipelineId -> deps.provider().pauses().get(pipelineId),
                lineage);
    }

    /** Collaborators by hand (tests); a marker without a date means today in UTC; skips are recorded nowhere. */
    public StreamRouterHandler(Supplier<SfnClient> stepFunctions, RouterSettings settings, Clock clock) {
        this(
                stepFunctions,
                settings,
                clock,
                StructuredLog.forName("stream-router"),
                pipelineId -> Optional.empty(),
                MarkerRouter.SkipLog.NOWHERE,
                pipelineId -> Optional.empty(),
                LineageEmitter.NONE);
    }

    /** Collaborators by hand (tests), with the pipelines a marker without a date takes its zone from. */
    public StreamRouterHandler(
            Supplier<SfnClient> stepFunctions,
            RouterSettings settings,
            Clock clock,
            Function<String, Optional<PipelineConfig>> pipelines) {
        this(
                stepFunctions,
                settings,
                clock,
                StructuredLog.forName("stream-router"),
                pipelines,
                MarkerRouter.SkipLog.NOWHERE,
                pipelineId -> Optional.empty(),
                LineageEmitter.NONE);
    }

    /** Collaborators by hand (tests), with where the markers that start nothing are recorded. */
    public static StreamRouterHandler recordingSkips(
            Supplier<SfnClient> stepFunctions, RouterSettings settings, Clock clock, MarkerRouter.SkipLog skips) {
        return recordingSkips(stepFunctions, settings, clock, skips, pipelineId -> Optional.empty());
    }

    /** Collaborators by hand (tests), with where skips are recorded and the pipelines' pauses. */
    public static StreamRouterHandler recordingSkips(
            Supplier<SfnClient> stepFunctions,
            RouterSettings settings,
            Clock clock,
            MarkerRouter.SkipLog skips,
            Function<String, Optional<Pause>> pauses) {
        return new StreamRouterHandler(
                stepFunctions,
                settings,
                clock,
                StructuredLog.forName("stream-router"),
                pipelineId -> Optional.empty(),
                skips,
                pauses,
                LineageEmitter.NONE);
    }

    private StreamRouterHandler(
            Supplier<SfnClient> stepFunctions,
            RouterSettings settings,
            Clock clock,
            StructuredLog log,
            Function<String, Optional<PipelineConfig>> pipelines,
            MarkerRouter.SkipLog skips,
            Function<String, Optional<Pause>> pauses,
            LineageEmitter lineage) {
        this.lineage = lineage;
        this.log = log;
        this.router = new MarkerRouter(
                new ExecutionStarter(stepFunctions, settings.stateMachineArn()),
                settings,
                clock,
                log,
                pipelines,
                skips,
                pauses);
    }

    @Override
    public StreamsEventResponse handleRequest(DynamodbEvent event, Context context) {
        List<DynamodbEvent.DynamodbStreamRecord> records =
                event == null || event.getRecords() == null ? List.of() : event.getRecords();
        // Run-state changes (only delivered when the deployment emits OpenLineage) go to the emitter, which never
        // fails a record; everything else is the marker router's.
        List<DynamodbEvent.DynamodbStreamRecord> markers = new ArrayList<>();
        for (DynamodbEvent.DynamodbStreamRecord record : records) {
            if (TableDefinition.INTERLOCK.isMarkerInsert(record.getEventName(), sortKey(record))) {
                markers.add(record);
                continue;
            }
            try {
                RunChange.read(record, TableDefinition.INTERLOCK).ifPresent(lineage::emit);
            } catch (RuntimeException e) {
                // An unreadable run item is the store's concern; lineage skips it and says so.
                log.warn(LogContext.NONE, "run change not read for OpenLineage", Map.of("error", String.valueOf(e)));
            }
        }
        List<StreamsEventResponse.BatchItemFailure> failures = router.route(markers).stream()
                .filter(MarkerRouter.RecordOutcome::failed)
                .map(outcome -> new StreamsEventResponse.BatchItemFailure(outcome.sequenceNumber()))
                .toList();
        return new StreamsEventResponse(failures);
    }

    private static String sortKey(DynamodbEvent.DynamodbStreamRecord record) {
        if (record.getDynamodb() == null || record.getDynamodb().getKeys() == null) {
            return null;
        }
        var value = record.getDynamodb().getKeys().get(TableDefinition.INTERLOCK.sortKey());
        return value == null ? null : value.getS();
    }
}
