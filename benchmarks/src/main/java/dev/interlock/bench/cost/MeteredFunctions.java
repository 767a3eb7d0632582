package dev.interlock.bench.cost;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayProxyRequestEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayProxyResponseEvent;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import dev.interlock.local.runtime.FunctionSet;
import dev.interlock.model.runtime.InterlockFunction;
import dev.interlock.wiring.Deps;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The production functions, each invocation timed and counted by the {@link Meter}: how the benchmark sees every
 * Lambda request the local runtime makes (state machine Tasks, the stream router's batches, the API, EventBridge
 * targets) without a hook in the runtime.
 */
public final class MeteredFunctions implements FunctionSet {

    private final FunctionSet functions;
    private final Meter meter;

    public MeteredFunctions(FunctionSet functions, Meter meter) {
        this.functions = functions;
        this.meter = meter;
    }

    @Override
    public RequestStreamHandler orchestrator(Deps deps) {
        return metered(InterlockFunction.ORCHESTRATOR, functions.orchestrator(deps));
    }

    @Override
    public RequestStreamHandler evaluator(Deps deps) {
        return metered(InterlockFunction.EVALUATOR, functions.evaluator(deps));
    }

    @Override
    public RequestStreamHandler trigger(Deps deps) {
        return metered(InterlockFunction.TRIGGER, functions.trigger(deps));
    }

    @Override
    public RequestStreamHandler runChecker(Deps deps) {
        return metered(InterlockFunction.RUN_CHECKER, functions.runChecker(deps));
    }

    @Override
    public RequestHandler<DynamodbEvent, StreamsEventResponse> streamRouter(Deps deps) {
        RequestHandler<DynamodbEvent, StreamsEventResponse> handler = functions.streamRouter(deps);
        return (event, context) ->
                meter.invocation(InterlockFunction.STREAM_ROUTER, () -> handler.handleRequest(event, context));
    }

    @Override
    public RequestHandler<APIGatewayProxyRequestEvent, APIGatewayProxyResponseEvent> api(Deps deps) {
        RequestHandler<APIGatewayProxyRequestEvent, APIGatewayProxyResponseEvent> handler = functions.api(deps);
        return (event, context) -> meter.invocation(InterlockFunction.API, () -> handler.handleRequest(event, context));
    }

    private RequestStreamHandler metered(InterlockFunction function, RequestStreamHandler handler) {
        return (in, out, context) -> {
            try {
                meter.invocation(function, () -> {
                    try {
                        handler.handleRequest(in, out, context);
                        return null;
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
        };
    }
}
