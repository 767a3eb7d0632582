package dev.interlock.wiring.alert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.interlock.model.alert.Alert;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.pipeline.Ownership;
import dev.interlock.model.runtime.Environment;
import dev.interlock.runtime.aws.AwsClients;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SnsAlertPublisherTest {

    private HttpServer server;
    private final List<Map<String, String>> published = new CopyOnWriteArrayList<>();
    private volatile int status = 200;

    @BeforeEach
    void startSnsStub() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            String form = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            Map<String, String> params = new HashMap<>();
            for (String pair : form.split("&")) {
                String[] kv = pair.split("=", 2);
                params.put(
                        URLDecoder.decode(kv[0], StandardCharsets.UTF_8),
                        kv.length > 1 ? URLDecoder.decode(kv[1], StandardCharsets.UTF_8) : "");
            }
            published.add(params);
            byte[] body = (status == 200
                            ? "<PublishResponse xmlns=\"http://sns.amazonaws.com/doc/2010-03-31/\"><PublishResult><MessageId>m-1</MessageId></PublishResult></PublishResponse>"
                            : "<ErrorResponse><Error><Type>Sender</Type><Code>NotFound</Code><Message>Topic does not exist</Message></Error></ErrorResponse>")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/xml");
            exchange.sendResponseHeaders(status, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private AwsClients clients() {
        return new AwsClients(Environment.of(Map.of(
                "INTERLOCK_ENDPOINT_SNS",
                "http://127.0.0.1:" + server.getAddress().getPort())));
    }

    private static Alert alert(String pipelineId) {
        return new Alert(
                AlertLevel.ERROR,
                AlertKind.RETRY_EXHAUSTED,
                pipelineId,
                "daily",
                LocalDate.parse("2026-03-01"),
                "retries exhausted after 3 attempts",
                Map.of("attempts", 3),
                Instant.parse("2026-03-01T10:00:00Z"));
    }

    @Test
    void publishesTheAlertJsonWithTheSpecSubjectThroughTheRealSnsClient() {
        try (AwsClients clients = clients()) {
            new SnsAlertPublisher(clients::sns, "arn:aws:sns:us-east-1:123456789012:alerts").publish(alert("silver"));
        }
        assertThat(published).singleElement().satisfies(p -> {
            assertThat(p)
                    .containsEntry("Action", "Publish")
                    .containsEntry("TopicArn", "arn:aws:sns:us-east-1:123456789012:alerts")
                    .containsEntry("Subject", "[error] RETRY_EXHAUSTED silver");
            var body = InterlockJson.tree(p.get("Message"));
            assertThat(body.get("kind").asText()).isEqualTo("RETRY_EXHAUSTED");
            assertThat(body.get("level").asText()).isEqualTo("error");
            assertThat(body.get("pipelineId").asText()).isEqualTo("silver");
            assertThat(body.get("date").asText()).isEqualTo("2026-03-01");
            assertThat(body.get("timestamp").asText()).isEqualTo("2026-03-01T10:00:00.000Z");
        });
    }

    @Test
    void aRoutedAlertCarriesItsTeamSeverityKindAndPipelineAsMessageAttributesForSubscriptionFilters() {
        Alert routed = alert("silver")
                .routedTo(new Ownership(
                        "ana@example.com",
                        "data-platform",
                        Map.of("domain", "orders"),
                        "https://wiki.example.com/runbooks/silver"));
        try (AwsClients clients = clients()) {
            new SnsAlertPublisher(clients::sns, "arn:aws:sns:us-east-1:123456789012:alerts").publish(routed);
            new SnsAlertPublisher(clients::sns, "arn:aws:sns:us-east-1:123456789012:alerts").publish(alert("gold"));
        }
        assertThat(published).hasSize(2);
        assertThat(attributes(published.get(0)))
                .containsOnly(
                        Map.entry("team", "data-platform"),
                        Map.entry("severity", "error"),
                        Map.entry("kind", "RETRY_EXHAUSTED"),
                        Map.entry("pipeline", "silver"));
        var body = InterlockJson.tree(published.get(0).get("Message"));
        assertThat(body.get("owner").asText()).isEqualTo("ana@example.com");
        assertThat(body.get("team").asText()).isEqualTo("data-platform");
        assertThat(body.get("labels").get("domain").asText()).isEqualTo("orders");
        assertThat(body.get("runbook").asText()).isEqualTo("https://wiki.example.com/runbooks/silver");
        assertThat(attributes(published.get(1)))
                .as("no team, no team attribute: SNS refuses an empty one, and a team filter must not match it")
                .containsOnlyKeys("severity", "kind", "pipeline");
        assertThat(InterlockJson.tree(published.get(1).get("Message")).has("team"))
                .isFalse();
    }

    /** The message attributes of a Publish as the SNS query protocol sends them ({@code MessageAttributes.entry.N}). */
    private static Map<String, String> attributes(Map<String, String> publish) {
        Map<String, String> attributes = new java.util.LinkedHashMap<>();
        for (int n = 1; publish.containsKey("MessageAttributes.entry." + n + ".Name"); n++) {
            String prefix = "MessageAttributes.entry." + n;
            assertThat(publish).containsEntry(prefix + ".Value.DataType", "String");
            attributes.put(publish.get(prefix + ".Name"), publish.get(prefix + ".Value.StringValue"));
        }
        return attributes;
    }

    @Test
    void aRejectedPublishIsADeliveryFailureNamingThePipeline() {
        status = 404;
        try (AwsClients clients = clients()) {
            SnsAlertPublisher publisher =
                    new SnsAlertPublisher(clients::sns, "arn:aws:sns:us-east-1:123456789012:gone");
            assertThatThrownBy(() -> publisher.publish(alert("gold")))
                    .isInstanceOf(AlertPublisher.AlertDeliveryException.class)
                    .hasMessageContaining("gold")
                    .hasMessageContaining("RETRY_EXHAUSTED");
        }
    }

    @Test
    void subjectsAreMadeSafeForSns() {
        assertThat(SnsAlertPublisher.safeSubject("[warning] DRIFT_DETECTED caf\u00e9\nline"))
                .isEqualTo("[warning] DRIFT_DETECTED caf??line");
        assertThat(SnsAlertPublisher.safeSubject("x".repeat(150))).hasSize(100);
    }
}
