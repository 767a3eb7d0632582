package dev.interlock.api;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayProxyRequestEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayProxyResponseEvent;
import dev.interlock.log.StructuredLog;
import dev.interlock.model.runtime.EnvVar;
import dev.interlock.model.runtime.InterlockFunction;
import dev.interlock.model.runtime.Lazy;
import dev.interlock.store.Provider;
import dev.interlock.wiring.Deps;
import dev.interlock.wiring.priming.Priming;
import java.time.Clock;

/** Lambda entry of the registration API (API Gateway REST API, Lambda proxy integration). */
public final class ApiHandler implements RequestHandler<APIGatewayProxyRequestEvent, APIGatewayProxyResponseEvent> {

    private final Lazy<Api> api;

    /** Lambda entry: the container's shared deps; the DynamoDB Provider is built on the first request. */
    public ApiHandler() {
        this(Deps.forFunction(InterlockFunction.API));
        // Before a SnapStart snapshot (or in provisioned-concurrency init): rehearse the bundled priming events.
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

    /** Collaborators by hand (tests). */
    public ApiHandler(Provider provider, Clock clock, ApiSettings settings, Identifiers ids) {
        Api built = new Api(provider, clock, settings, ids, StructuredLog.forName("api"));
        this.api = Lazy.of(() -> built);
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
