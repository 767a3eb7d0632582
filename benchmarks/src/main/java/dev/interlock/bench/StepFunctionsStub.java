package dev.interlock.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Step Functions' {@code StartExecution} (awsJson1_0) on 127.0.0.1, so the stream router's real SDK call succeeds
 * without a state machine behind it; every other operation is an {@code UnknownOperationException}, which makes
 * an unexpected AWS call from a function visible as a failed benchmark rather than a silent success.
 */
final class StepFunctionsStub implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String START_EXECUTION = "AWSStepFunctions.StartExecution";

    private final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final AtomicInteger started = new AtomicInteger();

    private StepFunctionsStub(HttpServer server) {
        this.server = server;
    }

    static StepFunctionsStub start() throws IOException {
        HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        StepFunctionsStub stub = new StepFunctionsStub(http);
        http.createContext("/", stub::handle);
        http.setExecutor(stub.executor);
        http.start();
        return stub;
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** Executions started so far. */
    int started() {
        return started.get();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
            byte[] body = exchange.getRequestBody().readAllBytes();
            if (!"POST".equals(exchange.getRequestMethod()) || !START_EXECUTION.equals(target)) {
                send(exchange, 400, "{\"__type\":\"UnknownOperationException\",\"message\":\"not stubbed: " + target + "\"}");
                return;
            }
            JsonNode request = JSON.readTree(body);
            String machine = request.path("stateMachineArn").asText();
            String name = request.path("name").asText();
            String executionArn = machine.replace(":stateMachine:", ":execution:") + ":" + name;
            started.incrementAndGet();
            double startDate = System.currentTimeMillis() / 1000.0;
            send(exchange, 200, JSON.createObjectNode().put("executionArn", executionArn).put("startDate", startDate).toString());
        }
    }

    private static void send(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/x-amz-json-1.0");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
