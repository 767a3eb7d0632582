package dev.interlock.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;

/**
 * A local endpoint that speaks the wire protocols of the AWS services Interlock calls, for tests that drive the real
 * SDK v2 clients: awsJson 1.0/1.1 operations are matched by their {@code X-Amz-Target} (e.g.
 * {@code AWSGlue.StartJobRun}), rest-json operations by {@code "METHOD /path"} (e.g.
 * {@code "POST /applications/app-1/jobruns"}). Every request is recorded so a test can assert what the SDK sent.
 */
public final class AwsProtocolStub implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final Map<String, Function<Recorded, Reply>> handlers = new ConcurrentHashMap<>();
    private final List<Recorded> requests = new CopyOnWriteArrayList<>();

    private AwsProtocolStub(HttpServer server) {
        this.server = server;
    }

    /** Starts on 127.0.0.1 on an ephemeral port. */
    public static AwsProtocolStub start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            AwsProtocolStub stub = new AwsProtocolStub(server);
            server.createContext("/", stub::handle);
            server.start();
            return stub;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The endpoint to give a client as its {@code endpointOverride}. */
    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** Answers an operation; a later registration for the same operation replaces an earlier one. */
    public AwsProtocolStub on(String operation, Function<Recorded, Reply> handler) {
        handlers.put(operation, handler);
        return this;
    }

    /** Answers an operation with a fixed reply. */
    public AwsProtocolStub on(String operation, Reply reply) {
        return on(operation, request -> reply);
    }

    /** Every request received, in order. */
    public List<Recorded> requests() {
        return List.copyOf(requests);
    }

    /** The requests of one operation. */
    public List<Recorded> requests(String operation) {
        return requests.stream().filter(r -> r.operation().equals(operation)).toList();
    }

    /** Forgets the recorded requests (handlers stay). */
    public void clearRequests() {
        requests.clear();
    }

    /**
     * Builds a real SDK client pointed at this stub: dummy static credentials, a fixed region, the URL-connection
     * HTTP client, and no SDK retries (so an error reply reaches the code under test at once, without waits).
     */
    public <B extends AwsClientBuilder<B, C> & AwsSyncClientBuilder<B, C>, C> C client(B builder) {
        return builder.endpointOverride(endpoint())
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
                .build();
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] raw = exchange.getRequestBody().readAllBytes();
            Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            exchange.getRequestHeaders().forEach((k, v) -> headers.put(k, v.isEmpty() ? "" : v.getFirst()));
            URI uri = exchange.getRequestURI();
            Recorded recorded = new Recorded(
                    exchange.getRequestMethod(),
                    uri.getRawPath(),
                    uri.getRawQuery(),
                    headers,
                    new String(raw, StandardCharsets.UTF_8));
            requests.add(recorded);
            Function<Recorded, Reply> handler = handlers.get(recorded.operation());
            Reply reply = handler == null
                    ? Reply.error(400, "UnknownOperationException", "stub has no answer for " + recorded.operation())
                    : handler.apply(recorded);
            byte[] body = reply.body().getBytes(StandardCharsets.UTF_8);
            reply.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
            exchange.sendResponseHeaders(reply.status(), body.length == 0 ? -1 : body.length);
            if (body.length > 0) {
                exchange.getResponseBody().write(body);
            }
        }
    }

    /**
     * One request as the SDK sent it.
     *
     * @param headers first value of each header, names case-insensitive
     */
    public record Recorded(String method, String path, String query, Map<String, String> headers, String body) {

        /** {@code X-Amz-Target} for the JSON protocols, else {@code "METHOD /raw/path"}. */
        public String operation() {
            String target = headers.get("X-Amz-Target");
            return target != null ? target : method.toUpperCase(Locale.ROOT) + " " + path;
        }

        /** The body parsed as JSON. */
        public JsonNode json() {
            try {
                return JSON.readTree(body.isEmpty() ? "{}" : body);
            } catch (IOException e) {
                throw new UncheckedIOException("request body is not JSON: " + body, e);
            }
        }
    }

    /** What the stub answers. */
    public record Reply(int status, Map<String, String> headers, String body) {

        /** 200 with a JSON document. */
        public static Reply json(String body) {
            return new Reply(200, Map.of("Content-Type", "application/json"), body);
        }

        /** 200 with a raw payload and extra headers (Lambda Invoke). */
        public static Reply raw(String body, Map<String, String> headers) {
            return new Reply(200, headers, body);
        }

        /**
         * A service error the way both JSON protocols report one: the error code in {@code x-amzn-ErrorType} and in
         * the body's {@code __type}.
         */
        public static Reply error(int status, String errorCode, String message) {
            String body = "{\"__type\":\"" + errorCode + "\",\"message\":\"" + message.replace("\"", "'") + "\"}";
            return new Reply(status, Map.of("Content-Type", "application/json", "x-amzn-ErrorType", errorCode), body);
        }
    }
}
