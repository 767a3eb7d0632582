package dev.interlock.bench;

import com.sun.net.httpserver.HttpExchange;
import dev.interlock.local.http.LoopbackHttpServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The Lambda Runtime API for one cold start: the first {@code GET …/invocation/next} hands out the one event, the
 * function's {@code …/response}, {@code …/error} or {@code …/init/error} ends the measurement, and a second
 * {@code next} is held open like a frozen sandbox until the JVM is killed.
 */
final class RuntimeApiStub implements AutoCloseable {

    private static final String API = "/2018-06-01/runtime";
    private static final String NEXT = API + "/invocation/next";
    private static final String INIT_ERROR = API + "/init/error";

    /** What the function sent back, and when it arrived ({@link System#nanoTime()}). */
    record Answer(Kind kind, String body, String errorType, long atNanos) {
        enum Kind {
            RESPONSE,
            ERROR,
            INIT_ERROR
        }
    }

    private LoopbackHttpServer server;
    private final String requestId = UUID.randomUUID().toString();
    private final byte[] event;
    private final String functionArn;
    private final AtomicBoolean handedOut = new AtomicBoolean();
    private final CountDownLatch closed = new CountDownLatch(1);
    private final CompletableFuture<Answer> answer = new CompletableFuture<>();
    private volatile long nextAtNanos;

    private RuntimeApiStub(byte[] event, String functionName) {
        this.event = event;
        this.functionArn = "arn:aws:lambda:us-east-1:123456789012:function:" + functionName;
    }

    static RuntimeApiStub start(String event, String functionName) throws IOException {
        RuntimeApiStub stub = new RuntimeApiStub(event.getBytes(StandardCharsets.UTF_8), functionName);
        stub.server = LoopbackHttpServer.start(0, stub::handle);
        return stub;
    }

    /** {@code host:port}, the value of {@code AWS_LAMBDA_RUNTIME_API}. */
    String address() {
        return "127.0.0.1:" + server.port();
    }

    CompletableFuture<Answer> answer() {
        return answer;
    }

    /** When the runtime client first asked for an event (its init is over), or 0 if it never did. */
    long nextAtNanos() {
        return nextAtNanos;
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        String method = exchange.getRequestMethod();
        if ("GET".equals(method) && NEXT.equals(path)) {
            next(exchange);
        } else if ("POST".equals(method) && path.equals(API + "/invocation/" + requestId + "/response")) {
            receive(exchange, Answer.Kind.RESPONSE);
        } else if ("POST".equals(method) && path.equals(API + "/invocation/" + requestId + "/error")) {
            receive(exchange, Answer.Kind.ERROR);
        } else if ("POST".equals(method) && INIT_ERROR.equals(path)) {
            receive(exchange, Answer.Kind.INIT_ERROR);
        } else {
            send(exchange, 404, "{\"errorMessage\":\"no runtime API route " + method + " " + path + "\"}");
        }
    }

    private void next(HttpExchange exchange) throws IOException {
        if (!handedOut.compareAndSet(false, true)) {
            // After its one event a real sandbox is frozen here; the JVM is killed while this waits.
            try {
                closed.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return;
        }
        nextAtNanos = System.nanoTime();
        var headers = exchange.getResponseHeaders();
        headers.add("Lambda-Runtime-Aws-Request-Id", requestId);
        headers.add("Lambda-Runtime-Deadline-Ms", Long.toString(System.currentTimeMillis() + 300_000));
        headers.add("Lambda-Runtime-Invoked-Function-Arn", functionArn);
        headers.add(
                "Lambda-Runtime-Trace-Id",
                "Root=1-" + Long.toHexString(System.currentTimeMillis() / 1000) + "-"
                        + requestId.replace("-", "").substring(0, 24) + ";Parent=0000000000000001;Sampled=0");
        headers.add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, event.length);
        exchange.getResponseBody().write(event);
    }

    private void receive(HttpExchange exchange, Answer.Kind kind) throws IOException {
        long at = System.nanoTime();
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String errorType = exchange.getRequestHeaders().getFirst("Lambda-Runtime-Function-Error-Type");
        send(exchange, 202, "{\"status\":\"OK\"}");
        answer.complete(new Answer(kind, body, errorType, at));
    }

    private static void send(HttpExchange exchange, int status, String body) throws IOException {
        LoopbackHttpServer.send(exchange, status, Map.of("Content-Type", "application/json"), body);
    }

    @Override
    public void close() {
        closed.countDown();
        server.close();
    }
}
