package dev.interlock.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A real HTTP server on 127.0.0.1 (ephemeral port) for tests of outbound calls: answers are scripted per
 * {@code "METHOD /path"} (a queue; the last answer repeats), every request is recorded.
 */
public final class LocalHttpServer implements AutoCloseable {

    private final HttpServer server;
    private final Map<String, Deque<Answer>> answers = new ConcurrentHashMap<>();
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);

    private LocalHttpServer(HttpServer server) {
        this.server = server;
    }

    /** Starts on 127.0.0.1 on an ephemeral port. */
    public static LocalHttpServer start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            LocalHttpServer local = new LocalHttpServer(server);
            server.createContext("/", local::handle);
            server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
            server.start();
            return local;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** {@code http://127.0.0.1:<port>} followed by {@code path}. */
    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port() + path);
    }

    /** Scripts the answers to {@code "METHOD /path"}, in order; the last one repeats. */
    public LocalHttpServer answer(String route, Answer... script) {
        answers.put(route, new ArrayDeque<>(List.of(script)));
        return this;
    }

    public List<Request> requests() {
        return List.copyOf(requests);
    }

    /** Lets requests that were answered with {@link Answer#hang()} finish. */
    public void releaseHungRequests() {
        release.countDown();
    }

    @Override
    public void close() {
        release.countDown();
        server.stop(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] raw = exchange.getRequestBody().readAllBytes();
            Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            exchange.getRequestHeaders().forEach((k, v) -> headers.put(k, String.join(",", v)));
            URI uri = exchange.getRequestURI();
            String route = exchange.getRequestMethod() + " " + uri.getRawPath();
            requests.add(new Request(
                    exchange.getRequestMethod(),
                    uri.getRawPath(),
                    uri.getRawQuery(),
                    headers,
                    new String(raw, StandardCharsets.UTF_8)));
            Deque<Answer> script = answers.get(route);
            Answer answer;
            if (script == null) {
                answer = Answer.status(404, "no route " + route);
            } else {
                synchronized (script) {
                    answer = script.size() > 1 ? script.pollFirst() : script.peekFirst();
                }
            }
            if (answer.hangs()) {
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return;
            }
            byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
            answer.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
            exchange.sendResponseHeaders(answer.status(), body.length == 0 ? -1 : body.length);
            if (body.length > 0) {
                exchange.getResponseBody().write(body);
            }
        }
    }

    /** One recorded request; header names case-insensitive, repeated values joined by commas. */
    public record Request(String method, String path, String query, Map<String, String> headers, String body) {}

    /** One scripted answer; {@code hang} holds the request open until the server is released or closed. */
    public record Answer(int status, Map<String, String> headers, String body, boolean hangs) {

        public static Answer json(int status, String body) {
            return new Answer(status, Map.of("Content-Type", "application/json"), body, false);
        }

        public static Answer status(int status, String body) {
            return new Answer(status, Map.of(), body, false);
        }

        public static Answer withHeader(int status, String name, String value) {
            return new Answer(status, Map.of(name, value), "", false);
        }

        public static Answer hang() {
            return new Answer(0, Map.of(), "", true);
        }
    }
}
