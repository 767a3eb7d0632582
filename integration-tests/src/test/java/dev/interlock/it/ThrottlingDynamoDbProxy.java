package dev.interlock.it;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A DynamoDB endpoint in front of the runtime's DynamoDB Local that throttles on demand: it answers the next requests
 * of an operation with {@code ProvisionedThroughputExceededException} exactly as DynamoDB does (HTTP 400, the AWS JSON
 * error type), and forwards everything else unchanged. DynamoDB Local never throttles; the functions routed through
 * this proxy meet the fault through their real SDK clients and retry policies.
 */
final class ThrottlingDynamoDbProxy implements AutoCloseable {

    private static final Set<String> HOP_BY_HOP =
            Set.of("host", "connection", "content-length", "expect", "upgrade", "transfer-encoding", "keep-alive");

    private final URI upstream;
    private final HttpServer server;
    private final ExecutorService pool = Executors.newFixedThreadPool(16, r -> {
        Thread t = new Thread(r, "throttling-dynamodb-proxy");
        t.setDaemon(true);
        return t;
    });
    private final HttpClient client =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final Map<String, AtomicInteger> toThrottle = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> throttled = new ConcurrentHashMap<>();

    private ThrottlingDynamoDbProxy(URI upstream) throws IOException {
        this.upstream = upstream;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        server.createContext("/", this::handle);
        server.setExecutor(pool);
        server.start();
    }

    static ThrottlingDynamoDbProxy start(URI upstream) throws IOException {
        return new ThrottlingDynamoDbProxy(upstream);
    }

    URI endpoint() {
        return URI.create("http://" + server.getAddress().getHostString() + ":"
                + server.getAddress().getPort());
    }

    /** The next {@code times} requests of {@code operation} (e.g. {@code PutItem}) are throttled. */
    void throttle(String operation, int times) {
        toThrottle.put(operation, new AtomicInteger(times));
    }

    /** How many requests of {@code operation} were answered with throttling. */
    int throttledOf(String operation) {
        AtomicInteger n = throttled.get(operation);
        return n == null ? 0 : n.get();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
            String operation = target == null ? "" : target.substring(target.indexOf('.') + 1);
            AtomicInteger left = toThrottle.get(operation);
            if (left != null && left.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                throttled.computeIfAbsent(operation, k -> new AtomicInteger()).incrementAndGet();
                byte[] error =
                        ("{\"__type\":\"com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException\","
                                        + "\"message\":\"The level of configured provisioned throughput for the table was exceeded (injected)\"}")
                                .getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/x-amz-json-1.0");
                exchange.sendResponseHeaders(400, error.length);
                exchange.getResponseBody().write(error);
                return;
            }
            HttpRequest.Builder forward = HttpRequest.newBuilder(
                            upstream.resolve(exchange.getRequestURI().toString()))
                    .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
            exchange.getRequestHeaders().forEach((name, values) -> {
                if (!HOP_BY_HOP.contains(name.toLowerCase(Locale.ROOT))) {
                    values.forEach(v -> forward.header(name, v));
                }
            });
            HttpResponse<byte[]> answer;
            try {
                answer = client.send(forward.build(), HttpResponse.BodyHandlers.ofByteArray());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            }
            answer.headers().map().forEach((name, values) -> {
                if (!HOP_BY_HOP.contains(name.toLowerCase(Locale.ROOT)) && !name.startsWith(":")) {
                    List<String> copy = List.copyOf(values);
                    exchange.getResponseHeaders().put(name, copy);
                }
            });
            byte[] payload = answer.body();
            exchange.sendResponseHeaders(answer.statusCode(), payload.length == 0 ? -1 : payload.length);
            if (payload.length > 0) {
                exchange.getResponseBody().write(payload);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        pool.shutdownNow();
        client.close();
    }
}
