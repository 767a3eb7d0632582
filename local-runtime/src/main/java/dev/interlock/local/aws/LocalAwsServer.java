package dev.interlock.local.aws;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import dev.interlock.local.http.LoopbackHttpServer;
import dev.interlock.local.alerts.AlertSink;

import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The local Lambda, SNS, Secrets Manager and SSM endpoints on 127.0.0.1: Lambda's Invoke API
 * ({@code POST /2015-03-31/functions/{name}/invocations}) runs the in-process functions, SNS's Publish (query
 * protocol, {@code POST /}) delivers to the {@link AlertSink}, and Secrets Manager's {@code GetSecretValue} and SSM's
 * {@code GetParameter} (JSON protocol, {@code POST /} with {@code X-Amz-Target}) answer from {@link LocalSecrets}. The
 * real SDK clients reach all of them via endpoint overrides.
 */
public final class LocalAwsServer implements AutoCloseable {

    private static final Pattern INVOKE = Pattern.compile("^/2015-03-31/functions/([^/]+)/invocations/?$");
    private static final long FUNCTION_TIMEOUT_MILLIS = 900_000;
    private static final String JSON_1_1 = "application/x-amz-json-1.1";
    private static final ObjectMapper JSON = new ObjectMapper();

    private LoopbackHttpServer server;
    private final FunctionRegistry functions;
    private final AlertSink alerts;
    private final LocalSecrets secrets;

    private LocalAwsServer(FunctionRegistry functions, AlertSink alerts, LocalSecrets secrets) {
        this.functions = functions;
        this.alerts = alerts;
        this.secrets = secrets;
    }

    public static LocalAwsServer start(int port, FunctionRegistry functions, AlertSink alerts, LocalSecrets secrets)
            throws IOException {
        LocalAwsServer s = new LocalAwsServer(functions, alerts, secrets);
        s.server = LoopbackHttpServer.start(port, s::handle);
        return s;
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
            Matcher invoke = INVOKE.matcher(path);
            String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
            if ("POST".equals(exchange.getRequestMethod()) && invoke.matches()) {
                invoke(exchange, URLDecoder.decode(invoke.group(1), StandardCharsets.UTF_8));
            } else if ("POST".equals(exchange.getRequestMethod()) && "/".equals(path) && target != null) {
                jsonProtocol(exchange, target);
            } else if ("POST".equals(exchange.getRequestMethod()) && "/".equals(path)) {
                sns(exchange);
            } else {
                send(exchange, 404, "application/json", Map.of("x-amzn-ErrorType", "UnknownOperationException"),
                        "{\"message\":\"no local AWS operation at " + exchange.getRequestMethod() + " " + path + "\"}");
            }
        }
    }

    private void invoke(HttpExchange exchange, String name) throws IOException {
        byte[] payload = exchange.getRequestBody().readAllBytes();
        String type = exchange.getRequestHeaders().getFirst("X-Amz-Invocation-Type");
        if (functions.find(name).isEmpty()) {
            send(exchange, 404, "application/json", Map.of("x-amzn-ErrorType", "ResourceNotFoundException"),
                    "{\"Type\":\"User\",\"message\":\"Function not found: " + LocalArns.function(LocalArns.functionName(name)) + "\"}");
            return;
        }
        if ("DryRun".equals(type)) {
            send(exchange, 204, "application/json", Map.of(), "");
            return;
        }
        if ("Event".equals(type)) {
            server.submit(() -> FunctionOutcome.invoke(functions, name, payload, FUNCTION_TIMEOUT_MILLIS));
            send(exchange, 202, "application/json", Map.of(), "");
            return;
        }
        FunctionOutcome outcome = FunctionOutcome.invoke(functions, name, payload, FUNCTION_TIMEOUT_MILLIS);
        Map<String, String> headers = new HashMap<>(Map.of("X-Amz-Executed-Version", "$LATEST"));
        if (outcome.failed()) {
            headers.put("X-Amz-Function-Error", "Unhandled");
            send(exchange, 200, "application/json", headers, new String(outcome.errorBody(), StandardCharsets.UTF_8));
        } else {
            send(exchange, 200, "application/json", headers, new String(outcome.payload(), StandardCharsets.UTF_8));
        }
    }

    /** Secrets Manager and SSM: the two read operations credential references use, and nothing else. */
    private void jsonProtocol(HttpExchange exchange, String target) throws IOException {
        JsonNode request;
        try {
            request = JSON.readTree(exchange.getRequestBody().readAllBytes());
        } catch (IOException e) {
            jsonError(exchange, "SerializationException", "the request body is not JSON");
            return;
        }
        switch (target) {
            case "secretsmanager.GetSecretValue" -> {
                String id = request.path("SecretId").asText("");
                Optional<String> value = secrets.secretString(id);
                if (value.isEmpty()) {
                    jsonError(exchange, "ResourceNotFoundException", "Secrets Manager can't find the specified secret.");
                    return;
                }
                ObjectNode out = JSON.createObjectNode()
                        .put("ARN", "arn:aws:secretsmanager:" + LocalArns.REGION + ":" + LocalArns.ACCOUNT + ":secret:" + id + "-local")
                        .put("Name", id).put("SecretString", value.get()).put("VersionId", "local")
                        .put("CreatedDate", 0);
                out.putArray("VersionStages").add("AWSCURRENT");
                send(exchange, 200, JSON_1_1, Map.of(), out.toString());
            }
            case "AmazonSSM.GetParameter" -> {
                String name = request.path("Name").asText("");
                Optional<String> value = secrets.parameter(name);
                if (value.isEmpty()) {
                    jsonError(exchange, "ParameterNotFound", "");
                    return;
                }
                ObjectNode out = JSON.createObjectNode();
                out.putObject("Parameter").put("Name", name).put("Type", "SecureString").put("Value", value.get())
                        .put("Version", 1).put("DataType", "text")
                        .put("ARN", "arn:aws:ssm:" + LocalArns.REGION + ":" + LocalArns.ACCOUNT + ":parameter"
                                + (name.startsWith("/") ? "" : "/") + name);
                send(exchange, 200, JSON_1_1, Map.of(), out.toString());
            }
            default -> jsonError(exchange, "UnknownOperationException", "the local endpoint does not serve " + target);
        }
    }

    private static void jsonError(HttpExchange exchange, String code, String message) throws IOException {
        send(exchange, 400, JSON_1_1, Map.of("x-amzn-ErrorType", code),
                JSON.createObjectNode().put("__type", code).put("message", message).toString());
    }

    private void sns(HttpExchange exchange) throws IOException {
        Map<String, String> form = form(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        if (!"Publish".equals(form.get("Action"))) {
            send(exchange, 400, "text/xml", Map.of(), snsError("InvalidAction", "the local SNS endpoint supports Publish only"));
            return;
        }
        if (form.get("Message") == null) {
            send(exchange, 400, "text/xml", Map.of(), snsError("InvalidParameter", "Message is required"));
            return;
        }
        alerts.receive(form.getOrDefault("TopicArn", ""), form.getOrDefault("Subject", ""), form.get("Message"));
        send(exchange, 200, "text/xml", Map.of(),
                "<PublishResponse xmlns=\"http://sns.amazonaws.com/doc/2010-03-31/\"><PublishResult><MessageId>"
                        + UUID.randomUUID() + "</MessageId></PublishResult><ResponseMetadata><RequestId>"
                        + UUID.randomUUID() + "</RequestId></ResponseMetadata></PublishResponse>");
    }

    private static String snsError(String code, String message) {
        return "<ErrorResponse xmlns=\"http://sns.amazonaws.com/doc/2010-03-31/\"><Error><Type>Sender</Type><Code>" + code
                + "</Code><Message>" + message + "</Message></Error><RequestId>" + UUID.randomUUID() + "</RequestId></ErrorResponse>";
    }

    private static Map<String, String> form(String body) {
        Map<String, String> out = new HashMap<>();
        for (String pair : body.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            String[] kv = pair.split("=", 2);
            out.put(URLDecoder.decode(kv[0], StandardCharsets.UTF_8), kv.length > 1 ? URLDecoder.decode(kv[1], StandardCharsets.UTF_8) : "");
        }
        return out;
    }

    private static void send(HttpExchange exchange, int status, String contentType, Map<String, String> headers, String body) throws IOException {
        Map<String, String> all = new java.util.LinkedHashMap<>(headers);
        all.put("Content-Type", contentType);
        LoopbackHttpServer.send(exchange, status, all, body);
    }

    @Override
    public void close() {
        server.close();
    }
}
