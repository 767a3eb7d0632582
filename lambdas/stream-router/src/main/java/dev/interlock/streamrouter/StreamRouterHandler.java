package dev.interlock.streamrouter;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import dev.interlock.model.runtime.InterlockFunction;
import dev.interlock.wiring.Deps;
import dev.interlock.wiring.priming.Priming;
import java.util.List;

/** Lambda entry of the table stream: one execution per marker insert, partial batch failures by sequence number. */
public final class StreamRouterHandler implements RequestHandler<DynamodbEvent, StreamsEventResponse> {

    private final StreamDispatch dispatch;

    /** Lambda entry: the container's shared, lazily built deps (the Step Functions client is created on the first marker). */
    public StreamRouterHandler() {
        this(Deps.forFunction(InterlockFunction.STREAM_ROUTER));
        Priming.onInit(Deps.get(), InterlockFunction.STREAM_ROUTER, this, DynamodbEvent.class);
    }

    /** Over explicit deps (the local runtime, or the container's). */
    public StreamRouterHandler(Deps deps) {
        // The store is created on the first marker: its pipeline's pause is read before an execution starts.
        this(new StreamDispatch(
                router(deps, RouterSettings.from(deps.environment())),
                LineageEmitters.of(deps),
                deps.log("stream-router")));
    }

    /** Around a dispatch built by hand (tests: a Step Functions stub, a fixed clock, where skips are recorded). */
    public StreamRouterHandler(StreamDispatch dispatch) {
        this.dispatch = dispatch;
    }

    private static MarkerRouter router(Deps deps, RouterSettings settings) {
        return new MarkerRouter(
                new ExecutionStarter(deps.clients()::stepFunctions, settings.stateMachineArn()),
                settings,
                deps.clock(),
                deps.log("stream-router"),
                pipelineId -> deps.provider().pipelines().get(pipelineId),
                event -> {
                    deps.provider().events().append(event);
                    return true;
                },
                pipelineId -> deps.provider().pauses().get(pipelineId));
    }

    @Override
    public StreamsEventResponse handleRequest(DynamodbEvent event, Context context) {
        List<DynamodbEvent.DynamodbStreamRecord> records =
                event == null || event.getRecords() == null ? List.of() : event.getRecords();
        return new StreamsEventResponse(dispatch.route(records));
    }
}
