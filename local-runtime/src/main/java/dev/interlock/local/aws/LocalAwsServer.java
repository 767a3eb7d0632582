package dev.interlock.local.aws;

import com.sun.net.httpserver.HttpExchange;
import dev.interlock.local.http.LoopbackHttpServer;
import dev.interlock.local.alerts.AlertSink;
import dev.interlock.local.events.EventBridgeApi;
import dev.interlock.local.jobs.JobFakes;
import dev.interlock.local.jobs.LambdaJobs;

import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The local AWS endpoint on 127.0.0.1 for every service but Step Functions and DynamoDB: Lambda's Invoke API
 * ({@code POST /2015-03-31/functions/{name}/invocations}) runs the in-process functions (any other function name is a
 * Lambda job fake), SNS's Publish (query protocol, {@code POST /}) delivers to the {@link AlertSink}, Secrets
 * Manager's {@code GetSecretValue} and SSM's {@code GetParameter} answer from {@link LocalSecrets}, and, when job fakes
 * are given, the JSON services behind {@code X-Amz-Target} (Glue, EMR, EventBridge) and EMR Serverless's REST
 * resources answer too. The real SDK clients reach all of them via endpoint overrides.
 */
public final class LocalAwsServer implements AutoCloseable {

    private static final Pattern INVOKE = Pattern.compile("^/2015-03-31/functions/([^/]+)/invocations/?$");
    private static final long FUNCTION_TIMEOUT_MILLIS = 900_000;

    private LoopbackHttpServer server;
    private final FunctionRegistry functions;
    private final AlertSink alerts;
    private final JobFakes jobs;
    private final List<AwsJson.Service> services;

    private LocalAwsServer(FunctionRegistry functions, AlertSink alerts, JobFakes jobs, List<AwsJson.Service> services) {
        this.functions = functions;
        this.alerts = alerts;
        this.jobs = jobs;
        this.services = services;
    }

    /** Lambda, SNS, Secrets Manager and SSM: unknown functions are not found. */
    public static LocalAwsServer start(int port, FunctionRegistry functions, AlertSink alerts, LocalSecrets secrets)
            throws IOException {
        LocalAwsServer s = new LocalAwsServer(functions, alerts, null, secrets.services());
        s.server = LoopbackHttpServer.start(port, s::handle);
        return s;
    }

    /**
     * Lambda, SNS, Secrets Manager and SSM, the job fakes' Glue, EMR, EMR Serverless and Lambda APIs, and
     * EventBridge's PutEvents.
     */
    public static LocalAwsServer start(int port, FunctionRegistry functions, AlertSink alerts, JobFakes jobs,
                                       EventBridgeApi events, LocalSecrets secrets) throws IOException {
        List<AwsJson.Service> services = new java.util.ArrayList<>(List.of(jobs.glue(), jobs.emr(), events));
        services.addAll(secrets.services());
        LocalAwsServer s = new LocalAwsServer(functions, alerts, jobs, List.copyOf(services));
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
            if (target != null) {
                Optional<AwsJson.Service> service = services.stream().filter(v -> target.startsWith(v.targetPrefix())).findFirst();
                if (service.isPresent()) {
                    AwsJson.serve(exchange, service.get());
                } else {
                    AwsJson.error(exchange, 400, "UnknownOperationException", "no local AWS service answers " + target,
                            AwsJson.JSON_1_1);
                }
            } else if (jobs != null && jobs.emrServerless().handles(path)) {
                jobs.emrServerless().handle(exchange);
            } else if ("POST".equals(exchange.getRequestMethod()) && invoke.matches()) {
                invoke(exchange, URLDecoder.decode(invoke.group(1), StandardCharsets.UTF_8));
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
        if (functions.find(name).isEmpty() && jobs != null) {
            invokeJob(exchange, LocalArns.functionName(name), payload, type);
            return;
        }
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

    /** A function that is not Interlock's own: a Lambda job fake, synchronous or (type Event) in the background. */
    private void invokeJob(HttpExchange exchange, String name, byte[] payload, String type) throws IOException {
        if ("DryRun".equals(type)) {
            send(exchange, 204, "application/json", Map.of(), "");
            return;
        }
        if ("Event".equals(type)) {
            server.submit(() -> {
                try {
                    jobs.lambda().invoke(name, payload);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            send(exchange, 202, "application/json", Map.of(), "");
            return;
        }
        LambdaJobs.Answer answer;
        try {
            answer = jobs.lambda().invoke(name, payload);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            send(exchange, 500, "application/json", Map.of("x-amzn-ErrorType", "ServiceException"),
                    "{\"message\":\"the local runtime is stopping\"}");
            return;
        }
        Map<String, String> headers = new HashMap<>(Map.of("X-Amz-Executed-Version", "$LATEST"));
        if (answer.functionError() != null) {
            headers.put("X-Amz-Function-Error", answer.functionError());
        }
        send(exchange, 200, "application/json", headers, answer.payload());
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
