package dev.interlock.api;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayProxyRequestEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayProxyResponseEvent;
import dev.interlock.deps.log.StructuredLog;
import dev.interlock.store.Provider;

import java.time.Clock;

/** Lambda entry of the registration API (API Gateway REST API, Lambda proxy integration). */
public final class ApiHandler implements RequestHandler<APIGatewayProxyRequestEvent, APIGatewayProxyResponseEvent> {

    private final Api api;

    /** Collaborators by hand (tests, the local runtime). */
    public ApiHandler(Provider provider, Clock clock, ApiSettings settings, Identifiers ids) {
        this.api = new Api(provider, clock, settings, ids, StructuredLog.forName("api"));
    }

    @Override
    public APIGatewayProxyResponseEvent handleRequest(APIGatewayProxyRequestEvent event, Context context) {
        return api.handle(ApiRequest.from(event == null ? new APIGatewayProxyRequestEvent() : event)).toEvent();
    }

    /** The API behind this handler (the local runtime serves it over HTTP). */
    public Api api() {
        return api;
    }
}
