package dev.interlock.wiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.interlock.model.runtime.Environment;
import dev.interlock.model.runtime.InterlockFunction;
import dev.interlock.store.Retention;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class DepsTest {

    @Test
    void nothingIsCreatedUntilFirstUse() {
        try (Deps deps = new Deps(Environment.of(Map.of()), Clock.systemUTC())) {
            assertThat(deps.clients().created("dynamodb")).isFalse();
            assertThat(deps.clients().created("sns")).isFalse();
        }
    }

    @Test
    void theProviderReadsTheConfiguredTableThroughTheEndpointOverride() throws Exception {
        List<String> bodies = new CopyOnWriteArrayList<>();
        HttpServer stub = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        stub.createContext("/", exchange -> {
            bodies.add(exchange.getRequestHeaders().getFirst("X-Amz-Target") + " "
                    + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            byte[] out = "{}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/x-amz-json-1.0");
            exchange.sendResponseHeaders(200, out.length);
            exchange.getResponseBody().write(out);
            exchange.close();
        });
        stub.start();
        try (Deps deps = new Deps(
                Environment.of(Map.of(
                        "TABLE_NAME",
                        "interlock-test",
                        "INTERLOCK_ENDPOINT_DYNAMODB",
                        "http://127.0.0.1:" + stub.getAddress().getPort())),
                Clock.systemUTC())) {
            assertThat(deps.provider().pipelines().get("silver")).isEmpty();
            assertThat(deps.clients().created("dynamodb")).isTrue();
        } finally {
            stub.stop(0);
        }
        assertThat(bodies)
                .singleElement()
                .asString()
                .startsWith("DynamoDB_20120810.GetItem")
                .contains("\"TableName\":\"interlock-test\"")
                .contains("PIPELINE#silver");
    }

    @Test
    void outboundHttpBudgetsRunOnTheWallClockEvenWhenTheBusinessClockRunsFaster() throws Exception {
        // A clock 3600 times faster than real time, as the local runtime's --time-scale makes it.
        Clock fast = new Clock() {
            private final java.time.Instant origin = java.time.Instant.now();
            private final long originNanos = System.nanoTime();

            @Override
            public java.time.ZoneId getZone() {
                return java.time.ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public java.time.Instant instant() {
                return origin.plusNanos((System.nanoTime() - originNanos) * 3600);
            }
        };
        try (dev.interlock.testing.LocalHttpServer server = dev.interlock.testing.LocalHttpServer.start();
                Deps deps = new Deps(Environment.of(Map.of("INTERLOCK_ALLOW_PRIVATE_URLS", "true")), fast)) {
            server.answer(
                    "POST /jobs/etl",
                    dev.interlock.testing.LocalHttpServer.Answer.json(503, "{}"),
                    dev.interlock.testing.LocalHttpServer.Answer.json(200, "{\"ok\":true}"));
            var response = deps.outboundHttp()
                    .send(dev.interlock.runtime.outbound.OutboundRequest.post(server.uri("/jobs/etl"), "{}")
                            .withRetry(dev.interlock.runtime.outbound.RetryMode.START_ONCE));
            assertThat(response.status()).isEqualTo(200);
            assertThat(server.requests()).hasSize(2);
        }
    }

    @Test
    void retentionComesFromTheEnvironment() {
        Retention r = Deps.retention(Environment.of(Map.of("RETENTION_DAYS", "3", "RUN_LOG_TTL_DAYS", "9")));
        assertThat(r.runs()).isEqualTo(Duration.ofDays(3));
        assertThat(r.events()).isEqualTo(Duration.ofDays(3));
        assertThat(r.runLogs()).isEqualTo(Duration.ofDays(9));
        assertThat(r.alertDedup()).isEqualTo(Duration.ofDays(7));
    }

    @Test
    void aMissingTableNameIsNamedWhenTheProviderIsFirstUsed() {
        try (Deps deps = new Deps(Environment.of(Map.of()), Clock.systemUTC())) {
            assertThatThrownBy(() -> deps.provider()).hasMessageContaining("TABLE_NAME");
            assertThatThrownBy(() -> deps.environment().requireFor(InterlockFunction.ORCHESTRATOR))
                    .hasMessageContaining("TABLE_NAME")
                    .hasMessageContaining("ALERT_TOPIC_ARN");
        }
    }

    @Test
    void outboundHttpFollowsTheEnvironmentAndIsBuiltOnceWithoutAnyAwsClient() {
        try (Deps deps = new Deps(Environment.of(Map.of("INTERLOCK_ALLOW_PRIVATE_URLS", "true")), Clock.systemUTC())) {
            assertThat(deps.outboundHttp().guard().allowsPrivate()).isTrue();
            assertThat(deps.outboundHttp()).isSameAs(deps.outboundHttp());
            assertThat(deps.outboundTemplates()).isSameAs(deps.outboundTemplates());
            for (String client : List.of("glue", "emr", "emrserverless", "sfn", "lambda", "sns", "dynamodb")) {
                assertThat(deps.clients().created(client)).as(client).isFalse();
            }
        }
        try (Deps deps = new Deps(Environment.of(Map.of()), Clock.systemUTC())) {
            assertThat(deps.outboundHttp().guard().allowsPrivate()).isFalse();
        }
    }
}
