package dev.interlock.runtime.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.interlock.model.runtime.Environment;
import dev.interlock.runtime.priming.OfflineMode;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class AwsClientsTest {

    private HttpServer server;
    private final List<String> targets = new CopyOnWriteArrayList<>();

    @BeforeEach
    void startStub() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            targets.add(exchange.getRequestHeaders().getFirst("X-Amz-Target"));
            byte[] body = "{\"TableNames\":[\"interlock\"]}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/x-amz-json-1.0");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stopStub() {
        server.stop(0);
    }

    @Test
    void clientsAreCreatedOnFirstUseAndHonourTheEndpointOverride() {
        String endpoint = "http://127.0.0.1:" + server.getAddress().getPort();
        try (AwsClients clients = new AwsClients(
                Environment.of(Map.of("AWS_REGION", "eu-west-1", "INTERLOCK_ENDPOINT_DYNAMODB", endpoint)))) {
            assertThat(clients.created("dynamodb")).isFalse();
            assertThat(clients.dynamoDb().listTables().tableNames()).containsExactly("interlock");
            assertThat(clients.created("dynamodb")).isTrue();
            assertThat(clients.created("sfn")).isFalse();
            assertThat(targets).containsExactly("DynamoDB_20120810.ListTables");
        }
    }

    /**
     * The recorder is not part of this module (nor of any function's jar): asked to record without it on the class path,
     * the clients refuse rather than record nothing, and without the ask they look for no recorder at all.
     */
    @Test
    void recordingAskedForWithoutTheRecorderOnTheClassPathIsRefusedByName() {
        Map<String, String> env = Map.of(
                "AWS_REGION",
                "eu-west-1",
                "AWS_LAMBDA_FUNCTION_NAME",
                "api",
                "INTERLOCK_AWS_REQUEST_LOG_DIR",
                "/tmp/x");
        assertThatThrownBy(() -> new AwsClients(Environment.of(env)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("INTERLOCK_AWS_REQUEST_LOG_DIR")
                .hasMessageContaining("lambdas/aws-recorder");
        assertThat(AwsRequestHook.configured(Environment.of(Map.of("AWS_REGION", "eu-west-1")), new OfflineMode()))
                .isEmpty();
    }
}
