package dev.interlock.local.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.APIGatewayProxyRequestEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayProxyResponseEvent;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class LocalApiServerTest {

    private final List<APIGatewayProxyRequestEvent> received = new CopyOnWriteArrayList<>();
    private final HttpClient http = HttpClient.newHttpClient();
    private LocalApiServer server;

    @BeforeEach
    void start() throws Exception {
        server = LocalApiServer.start(0, (event, ctx) -> {
            received.add(event);
            return new APIGatewayProxyResponseEvent()
                    .withStatusCode(201)
                    .withHeaders(Map.of("Content-Type", "application/json"))
                    .withBody("{\"ok\":true}");
        });
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void requestsBecomeApiGatewayProxyEvents() throws Exception {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create(server.endpoint() + "/pipelines/silver?limit=5&cursor=a%2Bb"))
                        .header("Content-Type", "application/yaml")
                        .PUT(HttpRequest.BodyPublishers.ofString("name: silver\n"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(r.statusCode()).isEqualTo(201);
        assertThat(r.body()).isEqualTo("{\"ok\":true}");
        APIGatewayProxyRequestEvent e = received.getFirst();
        assertThat(e.getHttpMethod()).isEqualTo("PUT");
        assertThat(e.getPath()).isEqualTo("/pipelines/silver");
        assertThat(e.getQueryStringParameters()).containsEntry("limit", "5").containsEntry("cursor", "a+b");
        assertThat(e.getHeaders()).containsEntry("Content-type", "application/yaml");
        assertThat(e.getBody()).isEqualTo("name: silver\n");
        assertThat(e.getRequestContext().getStage()).isEqualTo("local");
    }

    @Test
    void alertsAreTheApiFunctionsRouteAsOnAws() throws Exception {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create(server.endpoint() + "/alerts?kind=SLA_MISSED"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(201);
        assertThat(received).singleElement().satisfies(e -> {
            assertThat(e.getPath()).isEqualTo("/alerts");
            assertThat(e.getQueryStringParameters()).containsEntry("kind", "SLA_MISSED");
        });
    }
}
