package dev.interlock.local.api;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayProxyRequestEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayProxyResponseEvent;
import com.sun.net.httpserver.HttpExchange;
import dev.interlock.local.aws.InvocationLog;
import dev.interlock.local.aws.LocalContext;
import dev.interlock.local.http.LoopbackHttpServer;
import dev.interlock.local.metrics.LocalMetrics;
import dev.interlock.local.ui.UiAssets;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The registration API on 127.0.0.1: every request becomes the API Gateway proxy event the {@code api} function
 * receives on AWS, so the same handler answers (alerts included: {@code GET /alerts} reads the table's alert history,
 * as on AWS); plus the web UI at {@code /ui/}.
 */
public final class LocalApiServer implements AutoCloseable {

    /** API Gateway's own payload limit; the api function enforces its smaller one with a problem+json 413. */
    static final int MAX_BODY_BYTES = 10 * 1024 * 1024;

    /** The local runtime's own answer (no function behind it): the metrics the functions printed, per pipeline. */
    public static final String METRICS_PATH = "/local/metrics";

    private LoopbackHttpServer server;
    private final RequestHandler<APIGatewayProxyRequestEvent, APIGatewayProxyResponseEvent> api;
    private final LocalMetrics metrics;
    private AutoCloseable listening;

    private LocalApiServer(
            RequestHandler<APIGatewayProxyRequestEvent, APIGatewayProxyResponseEvent> api, LocalMetrics metrics) {
        this.api = api;
        this.metrics = metrics;
    }

    /**
     * The API, the web UI and {@value #METRICS_PATH}: the functions' embedded-metric-format lines, heard on standard
     * output while the server runs ({@link InvocationLog#listen}) and summed per pipeline.
     */
    public static LocalApiServer start(
            int port, RequestHandler<APIGatewayProxyRequestEvent, APIGatewayProxyResponseEvent> api)
            throws IOException {
        LocalMetrics metrics = new LocalMetrics();
        LocalApiServer s = new LocalApiServer(api, metrics);
        s.server = LoopbackHttpServer.start(port, s::handle);
        s.listening = InvocationLog.listen(metrics::accept);
        return s;
    }

    /** What the functions published since the server started. */
    public LocalMetrics metrics() {
        return metrics;
    }

    public int port() {
        return server.port();
    }

    public URI endpoint() {
        return server.endpoint();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            if (UiAssets.handles(path)) {
                UiAssets.serve(exchange);
                return;
            }
            if (path.equals(METRICS_PATH) && exchange.getRequestMethod().equals("GET")) {
                LoopbackHttpServer.send(
                        exchange,
                        200,
                        Map.of("Content-Type", "application/json"),
                        metrics.toJson().toString());
                return;
            }
            byte[] body = readLimited(exchange.getRequestBody());
            if (body == null) {
                LoopbackHttpServer.send(
                        exchange,
                        413,
                        Map.of("Content-Type", "application/json"),
                        "{\"message\":\"Request Too Long\"}");
                return;
            }
            APIGatewayProxyResponseEvent response =
                    api.handleRequest(toEvent(exchange, path, body), new LocalContext("api", 29_000));
            Map<String, String> headers = response.getHeaders() == null ? Map.of() : response.getHeaders();
            LoopbackHttpServer.send(
                    exchange,
                    response.getStatusCode() == null ? 502 : response.getStatusCode(),
                    headers,
                    response.getBody() == null ? "" : response.getBody());
        }
    }

    static APIGatewayProxyRequestEvent toEvent(HttpExchange exchange, String path, byte[] body) {
        APIGatewayProxyRequestEvent event = new APIGatewayProxyRequestEvent();
        event.setHttpMethod(exchange.getRequestMethod());
        event.setPath(path);
        Map<String, String> headers = new LinkedHashMap<>();
        Map<String, List<String>> multi = new LinkedHashMap<>();
        exchange.getRequestHeaders().forEach((k, v) -> {
            headers.put(k, String.join(",", v));
            multi.put(k, new ArrayList<>(v));
        });
        event.setHeaders(headers);
        event.setMultiValueHeaders(multi);
        Map<String, String> query = new LinkedHashMap<>();
        Map<String, List<String>> multiQuery = new LinkedHashMap<>();
        String raw = exchange.getRequestURI().getRawQuery();
        if (raw != null && !raw.isEmpty()) {
            for (String pair : raw.split("&")) {
                String[] kv = pair.split("=", 2);
                String k = URLDecoder.decode(kv[0], StandardCharsets.UTF_8);
                String v = kv.length > 1 ? URLDecoder.decode(kv[1], StandardCharsets.UTF_8) : "";
                query.put(k, v);
                multiQuery.computeIfAbsent(k, x -> new ArrayList<>()).add(v);
            }
        }
        event.setQueryStringParameters(query.isEmpty() ? null : query);
        event.setMultiValueQueryStringParameters(multiQuery.isEmpty() ? null : multiQuery);
        event.setBody(body.length == 0 ? null : new String(body, StandardCharsets.UTF_8));
        event.setIsBase64Encoded(false);
        APIGatewayProxyRequestEvent.ProxyRequestContext ctx = new APIGatewayProxyRequestEvent.ProxyRequestContext();
        ctx.setRequestId(UUID.randomUUID().toString());
        ctx.setStage("local");
        ctx.setHttpMethod(exchange.getRequestMethod());
        ctx.setPath(path);
        // Who called, as the audit of operators' actions records it: an IAM principal on AWS, "local" here.
        APIGatewayProxyRequestEvent.RequestIdentity identity = new APIGatewayProxyRequestEvent.RequestIdentity();
        identity.setCaller(LOCAL_CALLER);
        ctx.setIdentity(identity);
        event.setRequestContext(ctx);
        return event;
    }

    /** The caller every local request is recorded as. */
    private static final String LOCAL_CALLER = "local";

    private static byte[] readLimited(InputStream in) throws IOException {
        byte[] bytes = in.readNBytes(MAX_BODY_BYTES + 1);
        return bytes.length > MAX_BODY_BYTES ? null : bytes;
    }

    @Override
    public void close() {
        try {
            listening.close();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        server.close();
    }
}
