package dev.interlock.local.runtime;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayProxyRequestEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayProxyResponseEvent;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import dev.interlock.api.ApiHandler;
import dev.interlock.evaluator.EvaluatorHandler;
import dev.interlock.orchestrator.OrchestratorHandler;
import dev.interlock.runchecker.RunCheckerHandler;
import dev.interlock.streamrouter.StreamRouterHandler;
import dev.interlock.trigger.TriggerHandler;
import dev.interlock.wiring.Deps;

/**
 * The six real function handlers, each built over the runtime's {@link Deps} exactly as on Lambda. A fault-injection
 * test subclasses it and overrides only the functions it wraps, calling {@code super} for the real handler.
 */
public class ProductionFunctions implements FunctionSet {

    @Override
    public RequestStreamHandler orchestrator(Deps deps) {
        return new OrchestratorHandler(deps);
    }

    @Override
    public RequestStreamHandler evaluator(Deps deps) {
        return new EvaluatorHandler(deps);
    }

    @Override
    public RequestStreamHandler trigger(Deps deps) {
        return new TriggerHandler(deps);
    }

    @Override
    public RequestStreamHandler runChecker(Deps deps) {
        return new RunCheckerHandler(deps);
    }

    @Override
    public RequestHandler<DynamodbEvent, StreamsEventResponse> streamRouter(Deps deps) {
        return new StreamRouterHandler(deps);
    }

    @Override
    public RequestHandler<APIGatewayProxyRequestEvent, APIGatewayProxyResponseEvent> api(Deps deps) {
        return new ApiHandler(deps);
    }
}
