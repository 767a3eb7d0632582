package dev.interlock.api;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayProxyRequestEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayProxyResponseEvent;
import dev.interlock.model.runtime.EnvVar;
import dev.interlock.model.runtime.InterlockFunction;
import dev.interlock.model.runtime.Lazy;
import dev.interlock.wiring.Deps;
import dev.interlock.wiring.priming.Priming;

/** Lambda entry of the registration API (API Gateway REST API, Lambda proxy integration). */
public final class ApiHandler implements RequestHandler<APIGatewayProxyRequestEvent, APIGatewayProxyResponseEvent> {

    private final Lazy<Api> api;

    /** Lambda entry: the container's shared deps; the DynamoDB Provider is built on the first request. */
    public ApiHandler() {
        this(Deps.forFunction(InterlockFunction.API));
        Priming.onInit(Deps.get(), InterlockFunction.API, this, APIGatewayProxyRequestEvent.class);
    }

    /** Over explicit deps (local runtime, tests). */
    public ApiHandler(Deps deps) {
        this.api = Lazy.of(() -> new Api(
                deps.provider(),
                deps.clock(),
                ApiSettings.from(deps.environment()),
                Identifiers.random(),
                deps.log("api"),
                new SfnHolderExecutions(
                        () -> deps.clients().stepFunctions(), deps.environment().get(EnvVar.STATE_MACHINE_ARN))));
    }

    /** Around an API built by hand (tests: the in-memory Provider, a fixed clock, fixed identifiers). */
    public ApiHandler(Api api) {
        this.api = Lazy.of(() -> api);
    }

    @Override
    public APIGatewayProxyResponseEvent handleRequest(APIGatewayProxyRequestEvent event, Context context) {
        return api.get()
                .handle(ApiRequest.from(event == null ? new APIGatewayProxyRequestEvent() : event))
                .toEvent();
    }

    /** The API behind this handler (the local runtime serves it over HTTP). */
    public Api api() {
        return api.get();
    }
}
