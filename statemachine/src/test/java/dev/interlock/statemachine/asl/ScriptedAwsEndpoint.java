package dev.interlock.statemachine.asl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The small Lambda and SNS endpoint an emulator's Task states call (127.0.0.1, ephemeral port): Lambda's Invoke API
 * and SNS's Publish, answered with a scenario's scripted steps. A scripted result is the function's payload; a
 * scripted failure is what Lambda returns for a function error ({@code X-Amz-Function-Error: Unhandled} and
 * {@code {"errorType","errorMessage"}}, which Step Functions names by its errorType) or, for SNS, the service error
 * whose code Step Functions turns into {@code SNS.<Code>Exception}.
 */
final class ScriptedAwsEndpoint implements AutoCloseable {

    /** The resource SNS calls are reported as, the ASL's Resource of a publish Task. */
    static final String SNS_PUBLISH = "arn:aws:states:::sns:publish";

    private static final Pattern INVOKE = Pattern.compile("^/2015-03-31/functions/([^/]+)/invocations/?$");
    private static final Pattern SNS_ERROR = Pattern.compile("^SNS\\.(.+?)(Exception)?$");

    /** Answers one Task call: {@code resource} is the function ARN or {@link #SNS_PUBLISH}. */
    @FunctionalInterface
    interface Tasks {
        ScenarioScript.Step call(String resource, JsonNode request);
    }

    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "scripted-aws-endpoint");
        t.setDaemon(true);
        return t;
    });
    private final Tasks tasks;

    private ScriptedAwsEndpoint(Tasks tasks) throws IOException {
        this.tasks = tasks;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(threads);
        server.createContext("/", this::handle);
        server.start();
    }

    static ScriptedAwsEndpoint start(Tasks tasks) throws IOException {
        return new ScriptedAwsEndpoint(tasks);
    }

    int port() {
        return server.getAddress().getPort();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            Matcher invoke = INVOKE.matcher(exchange.getRequestURI().getPath());
            try {
                if (invoke.matches()) {
                    invoke(exchange, URLDecoder.decode(invoke.group(1), StandardCharsets.UTF_8), body);
                } else if (exchange.getRequestURI().getPath().equals("/")) {
                    publish(exchange, body);
                } else {
                    send(
                            exchange,
                            404,
                            "application/json",
                            "{\"message\":\"no scripted operation at " + exchange.getRequestURI() + "\"}");
                }
            } catch (RuntimeException e) {
                send(
                        exchange,
                        500,
                        "application/json",
                        Asl.JSON.createObjectNode().put("message", e.toString()).toString());
            }
        }
    }

    private void invoke(HttpExchange exchange, String function, String body) throws IOException {
        JsonNode payload = Asl.JSON.readTree(body.isEmpty() ? "null" : body);
        switch (tasks.call(function, payload)) {
            case ScenarioScript.Step.Return r -> {
                exchange.getResponseHeaders().add("X-Amz-Executed-Version", "$LATEST");
                send(exchange, 200, "application/json", Asl.JSON.writeValueAsString(r.value()));
            }
            case ScenarioScript.Step.Throw t -> {
                exchange.getResponseHeaders().add("X-Amz-Executed-Version", "$LATEST");
                exchange.getResponseHeaders().add("X-Amz-Function-Error", "Unhandled");
                ObjectNode error =
                        Asl.JSON.createObjectNode().put("errorType", t.error()).put("errorMessage", t.cause());
                error.putArray("trace");
                send(exchange, 200, "application/json", error.toString());
            }
        }
    }

    private void publish(HttpExchange exchange, String body) throws IOException {
        ObjectNode parameters = Asl.JSON.createObjectNode();
        String action = null;
        for (String pair : body.split("&")) {
            String[] kv = pair.split("=", 2);
            String key = URLDecoder.decode(kv[0], StandardCharsets.UTF_8);
            String value = kv.length > 1 ? URLDecoder.decode(kv[1], StandardCharsets.UTF_8) : "";
            if (key.equals("Action")) {
                action = value;
            } else if (!key.equals("Version")) {
                parameters.put(key, value);
            }
        }
        if (!"Publish".equals(action)) {
            send(exchange, 400, "text/xml", snsError("InvalidAction", "only Publish is scripted, not " + action));
            return;
        }
        switch (tasks.call(SNS_PUBLISH, parameters)) {
            case ScenarioScript.Step.Return r ->
                send(
                        exchange,
                        200,
                        "text/xml",
                        "<PublishResponse xmlns=\"http://sns.amazonaws.com/doc/2010-03-31/\"><PublishResult><MessageId>"
                                + r.value()
                                        .path("MessageId")
                                        .asText(UUID.randomUUID().toString())
                                + "</MessageId></PublishResult><ResponseMetadata><RequestId>" + UUID.randomUUID()
                                + "</RequestId></ResponseMetadata></PublishResponse>");
            case ScenarioScript.Step.Throw t -> {
                Matcher code = SNS_ERROR.matcher(t.error());
                if (!code.matches()) {
                    throw new IllegalArgumentException(
                            "an SNS Task fails with SNS.<Code>Exception on AWS; the script's " + t.error()
                                    + " cannot be answered as an SNS error");
                }
                send(
                        exchange,
                        code.group(1).startsWith("Internal") ? 500 : 400,
                        "text/xml",
                        snsError(code.group(1), t.cause()));
            }
        }
    }

    private static String snsError(String code, String message) {
        return "<ErrorResponse xmlns=\"http://sns.amazonaws.com/doc/2010-03-31/\"><Error><Type>Sender</Type><Code>"
                + code
                + "</Code><Message>" + xml(message) + "</Message></Error><RequestId>" + UUID.randomUUID()
                + "</RequestId></ErrorResponse>";
    }

    private static String xml(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static void send(HttpExchange exchange, int status, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", contentType);
        exchange.getResponseHeaders().add("x-amzn-RequestId", UUID.randomUUID().toString());
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
