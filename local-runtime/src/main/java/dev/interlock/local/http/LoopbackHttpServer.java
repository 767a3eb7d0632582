package dev.interlock.local.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * An HTTP server bound to 127.0.0.1 (port 0 = any free port) answering on virtual threads: the shape every local
 * endpoint shares — the API, the Lambda/SNS and Step Functions endpoints, the fake job server.
 */
public final class LoopbackHttpServer implements AutoCloseable {

    private final HttpServer server;
    private final ExecutorService executor;

    private LoopbackHttpServer(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /** Starts serving every path with {@code handler}; each exchange is closed after the handler returns. */
    public static LoopbackHttpServer start(int port, HttpHandler handler) throws IOException {
        HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        http.createContext("/", exchange -> {
            try (exchange) {
                handler.handle(exchange);
            }
        });
        http.setExecutor(executor);
        http.start();
        return new LoopbackHttpServer(http, executor);
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + port());
    }

    /** Runs work on the server's executor (for asynchronous invocations). */
    public void submit(Runnable work) {
        executor.submit(work);
    }

    /** Writes a response; an empty body is sent without content. */
    public static void send(HttpExchange exchange, int status, Map<String, String> headers, String body)
            throws IOException {
        byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        headers.forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            exchange.getResponseBody().write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
