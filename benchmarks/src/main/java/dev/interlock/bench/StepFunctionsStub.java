package dev.interlock.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import dev.interlock.local.http.LoopbackHttpServer;
import dev.interlock.model.json.InterlockJson;
import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Step Functions' {@code StartExecution} (awsJson1_0) on 127.0.0.1, so the stream router's real SDK call succeeds
 * without a state machine behind it; every other operation is an {@code UnknownOperationException}, which makes
 * an unexpected AWS call from a function visible as a failed benchmark rather than a silent success.
 */
final class StepFunctionsStub implements AutoCloseable {

    private static final ObjectMapper JSON = InterlockJson.json();
    private static final String START_EXECUTION = "AWSStepFunctions.StartExecution";

    private final AtomicInteger started = new AtomicInteger();
    private LoopbackHttpServer server;

    private StepFunctionsStub() {}

    static StepFunctionsStub start() throws IOException {
        StepFunctionsStub stub = new StepFunctionsStub();
        stub.server = LoopbackHttpServer.start(0, stub::handle);
        return stub;
    }

    URI endpoint() {
        return server.endpoint();
    }

    /** Executions started so far. */
    int started() {
        return started.get();
    }

    private void handle(HttpExchange exchange) throws IOException {
        String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
        byte[] body = exchange.getRequestBody().readAllBytes();
        if (!"POST".equals(exchange.getRequestMethod()) || !START_EXECUTION.equals(target)) {
            send(
                    exchange,
                    400,
                    "{\"__type\":\"UnknownOperationException\",\"message\":\"not stubbed: " + target + "\"}");
            return;
        }
        JsonNode request = JSON.readTree(body);
        String machine = request.path("stateMachineArn").asText();
        String name = request.path("name").asText();
        String executionArn = machine.replace(":stateMachine:", ":execution:") + ":" + name;
        started.incrementAndGet();
        double startDate = System.currentTimeMillis() / 1000.0;
        send(
                exchange,
                200,
                JSON.createObjectNode()
                        .put("executionArn", executionArn)
                        .put("startDate", startDate)
                        .toString());
    }

    private static void send(HttpExchange exchange, int status, String body) throws IOException {
        LoopbackHttpServer.send(exchange, status, Map.of("Content-Type", "application/x-amz-json-1.0"), body);
    }

    @Override
    public void close() {
        server.close();
    }
}
