package dev.interlock.streamrouter;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.interlock.model.json.InterlockJson;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * Step Functions on loopback, speaking the awsJson1_0 protocol of StartExecution: names are unique like on AWS
 * (a second start of a name answers ExecutionAlreadyExists), and a test can script a failure per execution name.
 */
final class StepFunctionsStub implements AutoCloseable {

    /** A request StartExecution received. */
    record StartRequest(String target, String stateMachineArn, String name, JsonNode input) {}

    /** A scripted error answer. */
    record Failure(int status, String type, String message) {
        static final Failure THROTTLED = new Failure(400, "ThrottlingException", "Rate exceeded");
        static final Failure INTERNAL = new Failure(500, "InternalFailure", "internal error");
    }

    private final HttpServer server;
    private final List<StartRequest> requests = new ArrayList<>();
    private final Set<String> executions = new HashSet<>();
    private final Map<String, Failure> failures = new ConcurrentHashMap<>();

    StepFunctionsStub() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    /** Answers every start of {@code executionName} with {@code failure}. */
    void fail(String executionName, Failure failure) {
        failures.put(executionName, failure);
    }

    /** Lets {@code executionName} start again. */
    void recover(String executionName) {
        failures.remove(executionName);
    }

    synchronized List<StartRequest> requests() {
        return List.copyOf(requests);
    }

    synchronized Set<String> executions() {
        return Set.copyOf(executions);
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** The real SDK client pointed at this stub; no SDK retries, so each record costs exactly one request. */
    SfnClient client() {
        return SfnClient.builder()
                .endpointOverride(endpoint())
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
                .build();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
            JsonNode body =
                    InterlockJson.json().readTree(exchange.getRequestBody().readAllBytes());
            if (!"AWSStepFunctions.StartExecution".equals(target)) {
                respond(exchange, 400, error("UnknownOperationException", "unexpected target " + target));
                return;
            }
            String name = body.path("name").asText();
            StartRequest request = new StartRequest(
                    target,
                    body.path("stateMachineArn").asText(),
                    name,
                    InterlockJson.json().readTree(body.path("input").asText()));
            Failure failure = failures.get(name);
            synchronized (this) {
                requests.add(request);
                if (failure == null && !executions.add(name)) {
                    failure = new Failure(400, "ExecutionAlreadyExists", "Execution Already Exists: '" + name + "'");
                }
            }
            if (failure != null) {
                respond(exchange, failure.status(), error(failure.type(), failure.message()));
                return;
            }
            String arn = request.stateMachineArn().replace(":stateMachine:", ":execution:") + ":" + name;
            respond(exchange, 200, InterlockJson.write(Map.of("executionArn", arn, "startDate", 1.7735328E9)));
        }
    }

    private static String error(String type, String message) {
        return InterlockJson.write(Map.of("__type", type, "message", message));
    }

    private static void respond(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/x-amz-json-1.0");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
