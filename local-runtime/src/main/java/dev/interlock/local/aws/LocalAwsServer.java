package dev.interlock.local.aws;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import dev.interlock.local.alerts.AlertSink;
import dev.interlock.local.events.EventBridgeApi;
import dev.interlock.local.http.LoopbackHttpServer;
import dev.interlock.local.jobs.JobFakes;
import dev.interlock.local.jobs.LambdaJobs;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.runtime.InterlockFunction;
import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The local AWS endpoint on 127.0.0.1 for every service but Step Functions and DynamoDB: Lambda's Invoke API
 * ({@code POST /2015-03-31/functions/{name}/invocations}, with {@code LogType=Tail}), GetFunction and ListFunctions run
 * and describe the in-process functions (invoking any other function name runs a Lambda job fake), SNS's Publish
 * (query protocol, {@code POST /}) delivers to the {@link AlertSink}, Secrets Manager's {@code GetSecretValue} and
 * SSM's {@code GetParameter} answer from {@link LocalSecrets}, and, when job fakes are given, the JSON services behind
 * {@code X-Amz-Target} (Glue, CloudWatch Logs' FilterLogEvents over the Glue fakes' error log, EMR, EventBridge) and EMR Serverless's REST resources answer too. The real SDK clients
 * and the AWS CLI reach all of them via endpoint overrides; LocalEndpointsConformanceTest compares the Lambda answers
 * with an independent emulator's.
 */
public final class LocalAwsServer implements AutoCloseable {

    private static final Pattern INVOKE = Pattern.compile("^/2015-03-31/functions/([^/]+)/invocations/?$");
    private static final Pattern FUNCTION = Pattern.compile("^/2015-03-31/functions/([^/]+)/?$");
    private static final Pattern FUNCTIONS = Pattern.compile("^/2015-03-31/functions/?$");
    private static final ObjectMapper JSON = InterlockJson.json();
    /** Lambda's LastModified format, e.g. 2026-11-23T22:59:34.469+0000. */
    private static final DateTimeFormatter LAST_MODIFIED =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ").withZone(ZoneOffset.UTC);

    private static final long FUNCTION_TIMEOUT_MILLIS = 900_000;

    private LoopbackHttpServer server;
    private final FunctionRegistry functions;
    private final AlertSink alerts;
    private final JobFakes jobs;
    private final List<AwsJson.Service> services;

    private LocalAwsServer(
            FunctionRegistry functions, AlertSink alerts, JobFakes jobs, List<AwsJson.Service> services) {
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
    public static LocalAwsServer start(
            int port,
            FunctionRegistry functions,
            AlertSink alerts,
            JobFakes jobs,
            EventBridgeApi events,
            LocalSecrets secrets)
            throws IOException {
        List<AwsJson.Service> services =
                new java.util.ArrayList<>(List.of(jobs.glue(), jobs.glueLogs(), jobs.emr(), events));
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
            Matcher function = FUNCTION.matcher(path);
            String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
            if (target != null) {
                Optional<AwsJson.Service> service = services.stream()
                        .filter(v -> target.startsWith(v.targetPrefix()))
                        .findFirst();
                if (service.isPresent()) {
                    AwsJson.serve(exchange, service.get());
                } else {
                    AwsJson.error(
                            exchange,
                            400,
                            "UnknownOperationException",
                            "no local AWS service answers " + target,
                            AwsJson.JSON_1_1);
                }
            } else if (jobs != null && jobs.emrServerless().handles(path)) {
                jobs.emrServerless().handle(exchange);
            } else if ("POST".equals(exchange.getRequestMethod()) && invoke.matches()) {
                invoke(exchange, URLDecoder.decode(invoke.group(1), StandardCharsets.UTF_8));
            } else if ("GET".equals(exchange.getRequestMethod())
                    && FUNCTIONS.matcher(path).matches()) {
                listFunctions(
                        exchange,
                        form(
                                exchange.getRequestURI().getRawQuery() == null
                                        ? ""
                                        : exchange.getRequestURI().getRawQuery()));
            } else if ("GET".equals(exchange.getRequestMethod()) && function.matches()) {
                getFunction(exchange, URLDecoder.decode(function.group(1), StandardCharsets.UTF_8));
            } else if ("POST".equals(exchange.getRequestMethod()) && "/".equals(path)) {
                sns(exchange);
            } else {
                send(
                        exchange,
                        404,
                        "application/json",
                        Map.of("x-amzn-ErrorType", "UnknownOperationException"),
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
            notFound(exchange, name);
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
        InvocationLog.Captured<FunctionOutcome> run;
        try {
            run = InvocationLog.capture(
                    () -> FunctionOutcome.invoke(functions, name, payload, FUNCTION_TIMEOUT_MILLIS));
        } catch (Exception e) {
            throw new IllegalStateException("invoking " + name, e);
        }
        FunctionOutcome outcome = run.answer();
        Map<String, String> headers = new HashMap<>(Map.of("X-Amz-Executed-Version", "$LATEST"));
        if ("Tail".equals(exchange.getRequestHeaders().getFirst("X-Amz-Log-Type"))) {
            headers.put("X-Amz-Log-Result", run.tailBase64());
        }
        if (outcome.failed()) {
            headers.put("X-Amz-Function-Error", "Unhandled");
            send(exchange, 200, "application/json", headers, new String(outcome.errorBody(), StandardCharsets.UTF_8));
        } else {
            send(exchange, 200, "application/json", headers, new String(outcome.payload(), StandardCharsets.UTF_8));
        }
    }

    private void getFunction(HttpExchange exchange, String name) throws IOException {
        if (functions.find(name).isEmpty()) {
            notFound(exchange, name);
            return;
        }
        ObjectNode out = JSON.createObjectNode();
        out.set("Configuration", configuration(LocalArns.functionName(name)));
        // The code is the runtime's own classpath; there is no package to download.
        out.putObject("Code")
                .put("RepositoryType", "S3")
                .put(
                        "Location",
                        endpoint() + "/2015-03-31/functions/" + LocalArns.functionName(name) + "/code-is-in-process");
        send(exchange, 200, "application/json", Map.of(), out.toString());
    }

    /** ListFunctions, by name; the marker is the last name handed out, so a page never repeats a function. */
    private void listFunctions(HttpExchange exchange, Map<String, String> query) throws IOException {
        int maxItems;
        try {
            maxItems = query.containsKey("MaxItems") ? Integer.parseInt(query.get("MaxItems")) : 50;
        } catch (NumberFormatException e) {
            maxItems = -1;
        }
        if (maxItems < 1 || maxItems > 10_000) {
            send(
                    exchange,
                    400,
                    "application/json",
                    Map.of("x-amzn-ErrorType", "InvalidParameterValueException"),
                    "{\"Type\":\"User\",\"message\":\"1 validation error detected: Value '" + query.get("MaxItems")
                            + "' at 'maxItems' failed to satisfy constraint: Member must have value between 1 and 10000\"}");
            return;
        }
        String marker = query.get("Marker");
        List<String> after = functions.names().stream()
                .filter(n -> marker == null || n.compareTo(marker) > 0)
                .toList();
        ObjectNode out = JSON.createObjectNode();
        ArrayNode listed = out.putArray("Functions");
        after.stream().limit(maxItems).forEach(n -> listed.add(configuration(n)));
        if (after.size() > maxItems) {
            out.put("NextMarker", after.get(maxItems - 1));
        }
        send(exchange, 200, "application/json", Map.of(), out.toString());
    }

    /** A function's configuration as Lambda describes it, with what the local runtime actually gives it. */
    private ObjectNode configuration(String name) {
        ObjectNode c = JSON.createObjectNode();
        c.put("FunctionName", name);
        c.put("FunctionArn", LocalArns.function(name));
        c.put("Runtime", "java21");
        c.put("Role", "arn:aws:iam::" + LocalArns.ACCOUNT + ":role/interlock-local");
        c.put("Handler", handler(name));
        c.put("CodeSize", 0);
        c.put("Description", "");
        c.put("Timeout", FUNCTION_TIMEOUT_MILLIS / 1000);
        c.put("MemorySize", Runtime.getRuntime().maxMemory() / (1024 * 1024));
        c.put("LastModified", LAST_MODIFIED.format(functions.registeredAt(name).orElseThrow()));
        c.put("CodeSha256", "");
        c.put("Version", "$LATEST");
        c.putObject("TracingConfig").put("Mode", "PassThrough");
        c.putArray("Layers");
        c.put("State", "Active");
        c.put("LastUpdateStatus", "Successful");
        c.put("PackageType", "Zip");
        c.putArray("Architectures").add(System.getProperty("os.arch").contains("aarch64") ? "arm64" : "x86_64");
        c.putObject("EphemeralStorage").put("Size", 512);
        c.putObject("SnapStart").put("ApplyOn", "None").put("OptimizationStatus", "Off");
        return c;
    }

    private static String handler(String name) {
        try {
            return InterlockFunction.fromModuleName(name).handler();
        } catch (IllegalArgumentException notOneOfOurs) {
            return name + "::handleRequest";
        }
    }

    private static void notFound(HttpExchange exchange, String name) throws IOException {
        send(
                exchange,
                404,
                "application/json",
                Map.of("x-amzn-ErrorType", "ResourceNotFoundException"),
                "{\"Type\":\"User\",\"message\":\"Function not found: "
                        + LocalArns.function(LocalArns.functionName(name)) + "\"}");
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
            send(
                    exchange,
                    500,
                    "application/json",
                    Map.of("x-amzn-ErrorType", "ServiceException"),
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
            send(
                    exchange,
                    400,
                    "text/xml",
                    Map.of(),
                    snsError("InvalidAction", "the local SNS endpoint supports Publish only"));
            return;
        }
        if (form.get("Message") == null) {
            send(exchange, 400, "text/xml", Map.of(), snsError("InvalidParameter", "Message is required"));
            return;
        }
        Map<String, String> attributes = new java.util.LinkedHashMap<>();
        for (int n = 1; form.containsKey("MessageAttributes.entry." + n + ".Name"); n++) {
            String entry = "MessageAttributes.entry." + n;
            attributes.put(form.get(entry + ".Name"), form.getOrDefault(entry + ".Value.StringValue", ""));
        }
        alerts.receive(
                form.getOrDefault("TopicArn", ""), form.getOrDefault("Subject", ""), form.get("Message"), attributes);
        send(
                exchange,
                200,
                "text/xml",
                Map.of(),
                "<PublishResponse xmlns=\"http://sns.amazonaws.com/doc/2010-03-31/\"><PublishResult><MessageId>"
                        + UUID.randomUUID() + "</MessageId></PublishResult><ResponseMetadata><RequestId>"
                        + UUID.randomUUID() + "</RequestId></ResponseMetadata></PublishResponse>");
    }

    private static String snsError(String code, String message) {
        return "<ErrorResponse xmlns=\"http://sns.amazonaws.com/doc/2010-03-31/\"><Error><Type>Sender</Type><Code>"
                + code + "</Code><Message>" + message + "</Message></Error><RequestId>" + UUID.randomUUID()
                + "</RequestId></ErrorResponse>";
    }

    private static Map<String, String> form(String body) {
        Map<String, String> out = new HashMap<>();
        for (String pair : body.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            String[] kv = pair.split("=", 2);
            out.put(
                    URLDecoder.decode(kv[0], StandardCharsets.UTF_8),
                    kv.length > 1 ? URLDecoder.decode(kv[1], StandardCharsets.UTF_8) : "");
        }
        return out;
    }

    private static void send(
            HttpExchange exchange, int status, String contentType, Map<String, String> headers, String body)
            throws IOException {
        Map<String, String> all = new java.util.LinkedHashMap<>(headers);
        all.put("Content-Type", contentType);
        LoopbackHttpServer.send(exchange, status, all, body);
    }

    @Override
    public void close() {
        server.close();
    }
}
