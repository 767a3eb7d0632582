package dev.interlock.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.APIGatewayProxyRequestEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayProxyResponseEvent;
import com.amazonaws.services.lambda.runtime.tests.EventLoader;
import dev.interlock.log.StructuredLog;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.marker.Marker;
import dev.interlock.model.runtime.Environment;
import dev.interlock.store.memory.InMemoryProvider;
import dev.interlock.wiring.Deps;
import java.time.LocalDate;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ApiHandlerTest {

    private final InMemoryProvider store = new InMemoryProvider(ApiFixture.CLOCK);
    private final ApiHandler handler = new ApiHandler(new Api(
            store,
            ApiFixture.CLOCK,
            new ApiSettings(3, 2, RequestBody.DEFAULT_MAX_BYTES),
            () -> "m-1",
            StructuredLog.forName("api")));

    private APIGatewayProxyResponseEvent handle(String fixture) {
        APIGatewayProxyRequestEvent event = EventLoader.loadApiGatewayRestEvent("events/" + fixture);
        APIGatewayProxyResponseEvent response = handler.handleRequest(event, null);
        OpenApiAnswers.document()
                .check(
                        event.getHttpMethod(),
                        ApiRequest.routedPath(event),
                        response.getStatusCode(),
                        response.getHeaders().get("Content-Type"),
                        response.getBody());
        return response;
    }

    @Test
    void aProxyEventIsRoutedByItsPathAndTheCallerIsRecordedAsTheMarkerOrigin() {
        APIGatewayProxyResponseEvent put = handle("put-pipeline.json");
        APIGatewayProxyResponseEvent evaluate = handle("post-evaluation-proxy.json");

        assertThat(put.getStatusCode()).isEqualTo(201);
        assertThat(put.getHeaders()).containsEntry("Content-Type", "application/json");
        assertThat(evaluate.getStatusCode()).isEqualTo(202);
        assertThat(store.cascade().markers("silver", LocalDate.of(2026, 3, 10)))
                .extracting(Marker::origin)
                .containsExactly("arn:aws:iam::123456789012:user/ops");
    }

    @Test
    void theRoutedPathComesFromTheResourceAndItsDecodedParameters() {
        APIGatewayProxyRequestEvent perRoute = new APIGatewayProxyRequestEvent()
                .withResource("/pipelines/{id}/runs")
                .withPath("/base/pipelines/a%2Fb/runs")
                .withPathParameters(Map.of("id", "a/b"));
        APIGatewayProxyRequestEvent greedy = new APIGatewayProxyRequestEvent()
                .withResource("/{proxy+}")
                .withPath("/base/sensors/x y")
                .withPathParameters(Map.of("proxy", "sensors/x y"));
        APIGatewayProxyRequestEvent local = new APIGatewayProxyRequestEvent().withPath("/health");

        assertThat(ApiRequest.routedPath(perRoute)).isEqualTo("/pipelines/a%2Fb/runs");
        assertThat(ApiRequest.routedPath(greedy)).isEqualTo("/sensors/x%20y");
        assertThat(ApiRequest.routedPath(local)).isEqualTo("/health");
        assertThat(ApiRequest.routedPath(new APIGatewayProxyRequestEvent()
                        .withResource("/runs/{runId}")
                        .withPath("/runs/r1")))
                .isEqualTo("/runs/r1");
    }

    @Test
    void aRefusalIsAProblemResponse() {
        APIGatewayProxyResponseEvent response = handle("list-bad-limit.json");

        assertThat(response.getStatusCode()).isEqualTo(400);
        assertThat(response.getHeaders()).containsEntry("Content-Type", "application/problem+json");
        assertThat(InterlockJson.tree(response.getBody())
                        .get("errors")
                        .get(0)
                        .get("path")
                        .asText())
                .isEqualTo("query.limit");
        assertThat(handler.handleRequest(null, null).getStatusCode()).isEqualTo(404);
    }

    @Test
    void theDepsWiredHandlerBuildsItsProviderOnTheFirstRequest() {
        try (Deps deps = new Deps(
                Environment.of(Map.of(
                        "TABLE_NAME",
                        "interlock",
                        "AWS_REGION",
                        "eu-west-1",
                        "INTERLOCK_ENDPOINT_DYNAMODB",
                        "http://127.0.0.1:9",
                        "STATE_MACHINE_ARN",
                        "arn:aws:states:eu-west-1:123456789012:stateMachine:interlock")),
                ApiFixture.CLOCK)) {
            ApiHandler wired = new ApiHandler(deps);
            assertThat(deps.clients().created("dynamodb")).isFalse();

            APIGatewayProxyResponseEvent response = wired.handleRequest(
                    new APIGatewayProxyRequestEvent().withHttpMethod("GET").withPath("/nowhere"), null);

            assertThat(response.getStatusCode()).isEqualTo(404);
        }
    }
}
