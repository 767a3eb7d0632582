package dev.interlock.local.runtime;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayProxyRequestEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayProxyResponseEvent;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import dev.interlock.wiring.Deps;

/** The six functions, each built over the runtime's {@link Deps} — the real handlers, or test doubles. */
public interface FunctionSet {

    RequestStreamHandler orchestrator(Deps deps);

    RequestStreamHandler evaluator(Deps deps);

    RequestStreamHandler trigger(Deps deps);

    RequestStreamHandler runChecker(Deps deps);

    RequestHandler<DynamodbEvent, StreamsEventResponse> streamRouter(Deps deps);

    RequestHandler<APIGatewayProxyRequestEvent, APIGatewayProxyResponseEvent> api(Deps deps);
}
