package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.interlock.api.OpenApiAnswers;
import dev.interlock.local.cli.InterlockCli;
import dev.interlock.local.demo.FakeJobServer;
import dev.interlock.local.runtime.FunctionSet;
import dev.interlock.local.runtime.LocalRuntime;
import dev.interlock.local.runtime.ProductionFunctions;
import dev.interlock.local.runtime.RuntimeOptions;
import dev.interlock.local.ui.UiAssets;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.runtime.Environment;
import dev.interlock.runtime.aws.AwsClients;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;
import software.amazon.awssdk.services.sfn.model.HistoryEvent;

/**
 * Shared fixture of the end-to-end scenarios: one local runtime per test class (tests use distinct pipeline names so
 * they do not interfere), a fake job server, and helpers that talk to the runtime only through its public endpoints
 * — the registration API over HTTP, the Step Functions API through the real SDK client, the Lambda Invoke API.
 * Time runs {@link #timeScale()} times faster so that every Wait of the state machine takes milliseconds; the
 * watchdog's own schedule is pushed out of reach so only the tests' explicit ticks run it (a background tick would
 * race the assertions of the watchdog scenarios).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class EndToEnd {

    static final ObjectMapper JSON = new ObjectMapper();
    /** A time as the CLI shows it (ReadableTime): {@code 2026-11-19 17:45 -08:00}, seconds when there are some. */
    static final String SHOWN_TIME = "\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d(:\\d\\d)? [+-]\\d\\d:\\d\\d";

    private static final Duration AWAIT = Duration.ofSeconds(60);

    protected LocalRuntime rt;
    protected FakeJobServer jobs;
    protected AwsClients aws;
    private final HttpClient http = HttpClient.newHttpClient();

    /** Scaled seconds per real second; high enough that a 60 s wait takes 0.2 s. */
    double timeScale() {
        return 300.0;
    }

    /** How long the fake Airflow DAG runs take (scaled). */
    Duration asyncJobDuration() {
        return Duration.ofMinutes(2);
    }

    /**
     * Where the runtime's clock starts; it then runs {@link #timeScale()} times faster. By default the class's first
     * runtime starts at {@link #safeMorning(Instant)} and a runtime restarted on its data directory goes on from where
     * the previous one stood (time never runs backwards across a restart).
     */
    Instant clockStart() {
        if (rt != null) {
            return rt.clock().instant();
        }
        if (classClockStart == null) {
            classClockStart = safeMorning(Instant.now());
        }
        return classClockStart;
    }

    private Instant classClockStart;

    /**
     * The first 06:00 UTC at or after {@code wallNow}: product time of day is then the same on every run, so no test
     * depends on when it runs. At 300x a class has 18 scaled hours (over three real minutes) before the scaled clock
     * reaches midnight UTC and a watchdog tick or a request without a date would mean the next day. (Expiry goes by
     * the product clock alone — DynamoDB Local's own wall-clock TTL stays off — so a class may as well start its
     * clock in the past, as {@code ExamplesEndToEndTest} does.)
     */
    static Instant safeMorning(Instant wallNow) {
        java.time.ZonedDateTime sixToday = wallNow.atZone(java.time.ZoneOffset.UTC)
                .toLocalDate()
                .atTime(6, 0)
                .atZone(java.time.ZoneOffset.UTC);
        return (sixToday.toInstant().isBefore(wallNow) ? sixToday.plusDays(1) : sixToday).toInstant();
    }

    /** Whether the class shares one in-memory runtime started before its tests (false: the tests start their own). */
    boolean sharedRuntime() {
        return true;
    }

    @BeforeAll
    void startRuntime() throws Exception {
        if (sharedRuntime()) {
            rt = startRuntime(null);
        }
    }

    /** The functions the runtime serves: the real handlers unless a class injects faults. */
    FunctionSet functions() {
        return new ProductionFunctions();
    }

    /**
     * Ephemeral ports, the class's time scale and clock start, and the watchdog's own schedule out of reach; a class
     * may add to them (a secrets file, function environment).
     */
    RuntimeOptions runtimeOptions(Path dataDir) {
        return RuntimeOptions.ephemeral(dataDir, timeScale())
                .withWatchdogInterval(Duration.ofDays(36500))
                .withClockStart(clockStart());
    }

    LocalRuntime startRuntime(Path dataDir) throws Exception {
        LocalRuntime runtime = LocalRuntime.start(runtimeOptions(dataDir), functions(), s -> {}, a -> {});
        attach(runtime);
        return runtime;
    }

    /** Points the job server and the AWS clients at {@code runtime} (again, after a restart). */
    void attach(LocalRuntime runtime) throws Exception {
        rt = runtime;
        jobs = jobServer(runtime, jobs);
        if (aws != null) {
            aws.close();
        }
        aws = new AwsClients(Environment.of(Map.of(
                "INTERLOCK_ENDPOINT_STEPFUNCTIONS",
                        runtime.stepFunctionsEndpoint().toString(),
                "INTERLOCK_ENDPOINT_LAMBDA", runtime.lambdaEndpoint().toString())));
    }

    /** The job server the tests use with {@code runtime}: a new one on its clock, the {@code previous} one closed. */
    FakeJobServer jobServer(LocalRuntime runtime, FakeJobServer previous) throws Exception {
        if (previous != null) {
            previous.close();
        }
        return FakeJobServer.start(0, runtime.clock(), asyncJobDuration());
    }

    /** One loopback server for the scenarios' HTTP evaluators, started on first use. */
    private com.sun.net.httpserver.HttpServer evaluators;
    /** The paths served there; a path answers as first registered. */
    private final java.util.Set<String> evaluatorPaths = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** What a scenario's HTTP evaluator answers: its HTTP status and JSON body. */
    record EvaluatorAnswer(int status, String body) {
        /** A 200 evaluator answer with {@code status} (PASS, FAIL, STALE) and an empty value. */
        static EvaluatorAnswer of(String status) {
            return new EvaluatorAnswer(200, "{\"status\":\"" + status + "\",\"value\":{}}");
        }
    }

    /**
     * An HTTP evaluator at {@code path} on a loopback server this class owns, answering each request (by its path) with
     * {@code answer} (the first one given for a path); the URL to register.
     */
    String evaluator(String path, java.util.function.Function<String, EvaluatorAnswer> answer) {
        try {
            if (evaluators == null) {
                evaluators = com.sun.net.httpserver.HttpServer.create(
                        new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 16);
                evaluators.start();
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot start the scenario's HTTP evaluator", e);
        }
        String url = "http://127.0.0.1:" + evaluators.getAddress().getPort() + path;
        if (!evaluatorPaths.add(path)) {
            return url;
        }
        evaluators.createContext(path, exchange -> {
            try (exchange) {
                exchange.getRequestBody().readAllBytes();
                EvaluatorAnswer a = answer.apply(exchange.getRequestURI().getPath());
                byte[] body = a.body().getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(a.status(), body.length);
                exchange.getResponseBody().write(body);
            }
        });
        return url;
    }

    /**
     * A class whose tests start their own runtime stops each test's runtime when the test ends, before JUnit deletes
     * the test's data directory (a runtime still writing there made that deletion fail now and then).
     */
    @AfterEach
    void stopTheTestsRuntime() {
        if (!sharedRuntime() && rt != null) {
            rt.close();
            rt = null;
        }
    }

    @AfterAll
    void stopRuntime() {
        if (aws != null) {
            aws.close();
        }
        if (jobs != null) {
            jobs.close();
        }
        if (rt != null) {
            rt.close();
        }
        // The evaluators outlive the runtime: its functions may still reach them while it stops.
        if (evaluators != null) {
            evaluators.stop(0);
        }
    }

    // ---- the registration API ----

    record Response(int status, String contentType, JsonNode body, String raw) {}

    Response call(String method, String path, String contentType, String body) {
        try {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(rt.apiEndpoint() + path))
                    .method(
                            method,
                            body == null
                                    ? HttpRequest.BodyPublishers.noBody()
                                    : HttpRequest.BodyPublishers.ofString(body));
            if (contentType != null) {
                b.header("Content-Type", contentType);
            }
            HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            JsonNode json;
            try {
                json = r.body().isBlank() ? JSON.nullNode() : JSON.readTree(r.body());
            } catch (java.io.IOException notJson) {
                json = JSON.getNodeFactory().textNode(r.body());
            }
            String answered = r.headers().firstValue("Content-Type").orElse("");
            if (!isRuntimeAsset(path)) {
                // Every answer of the API is documented: its (path template, method, status) and its body's schema.
                OpenApiAnswers.document().check(method, path, r.statusCode(), answered, r.body());
            }
            return new Response(r.statusCode(), answered, json, r.body());
        } catch (Exception e) {
            throw new IllegalStateException(method + " " + path + " failed: " + e, e);
        }
    }

    /** The local runtime's own web UI and its static files: served next to the API, not part of it. */
    static boolean isRuntimeAsset(String path) {
        return UiAssets.handles(path.contains("?") ? path.substring(0, path.indexOf('?')) : path);
    }

    JsonNode expect(int status, String method, String path, String contentType, String body) {
        Response r = call(method, path, contentType, body);
        assertThat(r.status()).as(method + " " + path + " -> " + r.raw()).isEqualTo(status);
        return r.body();
    }

    /** Registers a pipeline from YAML text; its name is read from the document. */
    /**
     * Registers a pipeline that is ready at once (the batch-ingestion archetype's three traits always pass), started by
     * {@code trigger} (a YAML flow mapping), followed once a minute for up to 2 h, with no retry: the shape the restart
     * and crash scenarios start their jobs with.
     */
    JsonNode putReadyPipelineWithoutRetry(String name, String trigger) {
        return putPipeline("""
                name: %s
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: %s
                pollIntervalSeconds: 60
                maxJobDurationSeconds: 7200
                retry: {maxAttempts: 1}
                """.formatted(name, trigger));
    }

    JsonNode putPipeline(String yaml) {
        String name = yaml.lines()
                .filter(l -> l.startsWith("name:"))
                .findFirst()
                .orElseThrow()
                .substring(5)
                .trim();
        Response r = call("PUT", "/pipelines/" + name, "application/yaml", yaml);
        assertThat(r.status()).as("PUT /pipelines/" + name + " -> " + r.raw()).isIn(200, 201);
        return r.body();
    }

    /**
     * A Glue pipeline (a 90-second job, all traits passing) whose post-run check {@code rows-written} wants rows
     * written in sensor {@code <name>-rows}; {@code retry} is its retry policy as YAML.
     */
    void putRowsCheckedGluePipeline(String name, String retry) {
        putPipeline("""
                name: %1$s
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: glue, jobName: %1$s-job, arguments: {"--fake-duration-seconds": "90"}}
                postRun:
                  - name: rows-written
                    evaluator: "builtin:sensor-threshold"
                    config: {sensor: %1$s-rows, field: rows, op: gt, value: 0}
                pollIntervalSeconds: 60
                maxJobDurationSeconds: 3600
                retry: %2$s
                """.formatted(name, retry));
    }

    void sensor(String name, String json) {
        expect(200, "PUT", "/sensors/" + name, "application/json", json);
    }

    /** {@code count} evaluation requests for the day, released together from as many threads; the answers in order. */
    List<Response> concurrentEvaluations(String pipeline, LocalDate date, int count) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Response>> answers = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(count)) {
            for (int i = 0; i < count; i++) {
                answers.add(pool.submit(() -> {
                    go.await();
                    return call(
                            "POST",
                            "/pipelines/" + pipeline + "/evaluations",
                            "application/json",
                            "{\"date\":\"" + date + "\"}");
                }));
            }
            go.countDown();
        }
        List<Response> responses = new ArrayList<>();
        for (Future<Response> answer : answers) {
            responses.add(answer.get());
        }
        return responses;
    }

    /** POST …/evaluations for a date and schedule; answers the execution name the marker will start. */
    String evaluate(String pipeline, LocalDate date, String schedule) {
        String body = schedule == null
                ? "{\"date\":\"" + date + "\"}"
                : "{\"date\":\"" + date + "\",\"scheduleId\":\"" + schedule + "\"}";
        return expect(202, "POST", "/pipelines/" + pipeline + "/evaluations", "application/json", body)
                .path("executionName")
                .asText();
    }

    String evaluate(String pipeline, LocalDate date) {
        return evaluate(pipeline, date, null);
    }

    /** Every item of a paginated listing. */
    List<JsonNode> list(String path) {
        List<JsonNode> items = new ArrayList<>();
        String cursor = null;
        do {
            String sep = path.contains("?") ? "&" : "?";
            JsonNode page = expect(
                    200,
                    "GET",
                    cursor == null ? path : path + sep + "cursor=" + URLEncoder.encode(cursor, StandardCharsets.UTF_8),
                    null,
                    null);
            page.path("items").forEach(items::add);
            cursor = page.hasNonNull("nextCursor") ? page.get("nextCursor").asText() : null;
        } while (cursor != null);
        return items;
    }

    List<JsonNode> runLogs(String pipeline) {
        return list("/pipelines/" + pipeline + "/runlogs");
    }

    /** The run log of (pipeline, date, schedule), or a missing node. */
    JsonNode runLog(String pipeline, LocalDate date, String schedule) {
        return runLogs(pipeline).stream()
                .filter(l -> l.path("date").asText().equals(date.toString())
                        && l.path("scheduleId").asText().equals(schedule))
                .findFirst()
                .orElse(JSON.missingNode());
    }

    String runLogStatus(String pipeline, LocalDate date, String schedule) {
        return runLog(pipeline, date, schedule).path("status").asText("none");
    }

    List<JsonNode> runs(String pipeline) {
        return list("/pipelines/" + pipeline + "/runs");
    }

    List<JsonNode> events(String pipeline) {
        return list("/pipelines/" + pipeline + "/events");
    }

    /** The event kinds of a pipeline, oldest first, as {@code KIND} or {@code KIND:status}. */
    List<String> eventKinds(String pipeline) {
        return events(pipeline).stream().map(e -> e.path("kind").asText()).toList();
    }

    List<JsonNode> eventsOf(String pipeline, String kind) {
        return events(pipeline).stream()
                .filter(e -> e.path("kind").asText().equals(kind))
                .toList();
    }

    /** The alerts sent for a pipeline (GET /alerts, the table's alert history), oldest first. */
    List<JsonNode> alerts(String pipeline) {
        List<JsonNode> newestFirst = list("/alerts?pipeline=" + URLEncoder.encode(pipeline, StandardCharsets.UTF_8));
        return newestFirst.reversed();
    }

    List<String> alertKinds(String pipeline) {
        return alerts(pipeline).stream().map(a -> a.path("kind").asText()).toList();
    }

    // ---- the Step Functions API ----

    /** The executions started for a pipeline (names are {@code <pipeline>_<date>_<schedule>_<hash>}), oldest first. */
    List<ExecutionListItem> executions(String pipeline) {
        String prefix = pipeline.replaceAll("[^A-Za-z0-9_-]", "_") + "_";
        List<ExecutionListItem> out = new ArrayList<>();
        aws.stepFunctions()
                .listExecutionsPaginator(b -> b.stateMachineArn(rt.stateMachineArn()))
                .executions()
                .forEach(e -> {
                    if (e.name().startsWith(prefix)) {
                        out.add(e);
                    }
                });
        out.sort(java.util.Comparator.comparing(ExecutionListItem::startDate));
        return out;
    }

    ExecutionListItem execution(String name) {
        return executions(name.substring(0, name.indexOf('_'))).stream()
                .filter(e -> e.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no execution " + name));
    }

    String arnOf(String executionName) {
        return rt.stateMachineArn().replace(":stateMachine:", ":execution:") + ":" + executionName;
    }

    /** The states an execution entered, in order, from GetExecutionHistory. */
    List<String> visited(String executionArn) {
        List<String> states = new ArrayList<>();
        for (HistoryEvent e : aws.stepFunctions()
                .getExecutionHistoryPaginator(b -> b.executionArn(executionArn))
                .events()) {
            if (e.stateEnteredEventDetails() != null) {
                states.add(e.stateEnteredEventDetails().name());
            }
        }
        return states;
    }

    JsonNode input(String executionArn) {
        try {
            return JSON.readTree(aws.stepFunctions()
                    .describeExecution(b -> b.executionArn(executionArn))
                    .input());
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    ExecutionStatus status(String executionArn) {
        return aws.stepFunctions()
                .describeExecution(b -> b.executionArn(executionArn))
                .status();
    }

    /**
     * A chain of executions that handed work on: one {@code EXECUTION_HANDED_OVER} per execution but the last, each
     * naming the execution that followed it, which a marker of {@code source} started.
     */
    void assertEachHandedOverToTheNext(List<JsonNode> handOvers, List<ExecutionListItem> executions, String source) {
        org.assertj.core.api.Assertions.assertThat(handOvers).hasSize(executions.size() - 1);
        for (int i = 0; i < handOvers.size(); i++) {
            ExecutionListItem next = executions.get(i + 1);
            org.assertj.core.api.Assertions.assertThat(handOvers
                            .get(i)
                            .path("details")
                            .path("successorExecution")
                            .asText())
                    .isEqualTo(next.name());
            org.assertj.core.api.Assertions.assertThat(
                            input(next.executionArn()).path("markerSource").asText())
                    .as("what started %s", next.name())
                    .isEqualTo(source);
        }
    }

    /** Waits until the pipeline has {@code count} executions and none is still running; answers them oldest first. */
    List<ExecutionListItem> awaitExecutionsDone(String pipeline, int count) {
        return await(
                pipeline + ": " + count + " finished executions",
                () -> executions(pipeline),
                l -> l.size() == count && l.stream().noneMatch(e -> e.status() == ExecutionStatus.RUNNING));
    }

    /** Waits until the pipeline has executions and none is still running; answers them oldest first. */
    List<ExecutionListItem> awaitExecutionsDone(String pipeline) {
        return await(
                pipeline + ": finished executions",
                () -> executions(pipeline),
                l -> !l.isEmpty() && l.stream().noneMatch(e -> e.status() == ExecutionStatus.RUNNING));
    }

    /** Waits for the execution the stream router starts from a marker (it may not exist yet) to finish. */
    ExecutionStatus awaitDone(String executionName) {
        String arn = arnOf(executionName);
        return await(
                executionName + " finished",
                () -> {
                    try {
                        return status(arn);
                    } catch (software.amazon.awssdk.services.sfn.model.ExecutionDoesNotExistException notStartedYet) {
                        return ExecutionStatus.RUNNING;
                    }
                },
                s -> s != ExecutionStatus.RUNNING);
    }

    // ---- the Lambda Invoke API ----

    /** What the watchdog schedule sends the orchestrator. */
    static final String WATCHDOG_REQUEST = InterlockJson.write(OrchestratorAction.WATCHDOG.invocation(null));

    /** One watchdog tick, as the schedule invokes it. */
    JsonNode invokeWatchdog() {
        return invokeOrchestrator(WATCHDOG_REQUEST);
    }

    JsonNode invokeOrchestrator(String payload) {
        var r = aws.lambda().invoke(b -> b.functionName("orchestrator").payload(SdkBytes.fromUtf8String(payload)));
        assertThat(r.functionError())
                .as("orchestrator error: " + r.payload().asUtf8String())
                .isNull();
        try {
            return JSON.readTree(r.payload().asUtf8String());
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    // ---- the CLI ----

    /** What one in-process run of the CLI answered and printed. */
    record Cli(int code, String out, String err) {}

    /** What {@code interlock why <pipeline> --date <date>} printed against this runtime's API; it must succeed. */
    String why(String pipeline, LocalDate date) {
        return printed("why", pipeline, "--date", date.toString());
    }

    /** The CLI against this runtime's API (its endpoint, no SigV4), in process. */
    Cli runCli(String... args) {
        String[] all = java.util.Arrays.copyOf(args, args.length + 3);
        all[args.length] = "--endpoint";
        all[args.length + 1] = rt.apiEndpoint().toString();
        all[args.length + 2] = "--no-sigv4";
        return cli(all);
    }

    /** What a CLI command printed against this runtime's API; it must exit 0 (else what it printed is the failure). */
    String printed(String... args) {
        Cli result = runCli(args);
        org.assertj.core.api.Assertions.assertThat(result.code())
                .as(String.join(" ", args) + " printed:\n" + result.out() + result.err())
                .isZero();
        return result.out();
    }

    /**
     * Runs the CLI in process, capturing what it prints; the in-process runtime's own JSON log lines are left out of
     * {@code out}. One CLI at a time: it prints to the process's {@code System.out}.
     */
    Cli cli(String... args) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        int code;
        synchronized (System.class) {
            PrintStream out = System.out;
            PrintStream err = System.err;
            System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
            try {
                code = InterlockCli.run(args);
            } finally {
                System.setOut(out);
                System.setErr(err);
            }
        }
        String printed = o.toString(StandardCharsets.UTF_8)
                .lines()
                .filter(l -> !l.startsWith("{\"timestamp\""))
                .collect(java.util.stream.Collectors.joining("\n"));
        return new Cli(code, printed, e.toString(StandardCharsets.UTF_8));
    }

    // ---- shared pipelines and direct table access ----

    /** Ready once the sensor {@code <name>-src} reports a count of at least 1; re-evaluated every minute until then. */
    String waitingForSensor(String name) {
        return """
                name: %s
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:sensor-threshold", config: {sensor: %s-src, field: count, op: gte, value: 1}}
                trigger: {type: http, url: "%s/jobs/%s"}
                evaluationIntervalSeconds: 60
                """.formatted(name, name, jobs.endpoint(), name);
    }

    /** Until {@code pipeline} evaluated a round that was NOT READY. */
    void awaitNotReady(String pipeline) {
        await(
                pipeline + " waits on NOT READY",
                () -> eventsOf(pipeline, "READINESS_CHECKED"),
                l -> l.stream().anyMatch(e -> e.path("status").asText().equals("NOT_READY")));
    }

    /** A DynamoDB client on the runtime's table endpoint, for items a producer or a fault writes directly. */
    DynamoDbClient dynamoDb() {
        return DynamoDbClient.builder()
                .endpointOverride(rt.dynamoDbEndpoint())
                .region(Region.US_EAST_1)
                .httpClient(UrlConnectionHttpClient.create())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                .build();
    }

    // ---- waiting ----

    interface Probe<T> {
        T get() throws Exception;
    }

    /** Polls {@code probe} until {@code done} holds, failing with the last value after the deadline. No sleeps. */
    static <T> T await(String what, Probe<T> probe, Predicate<T> done) {
        return await(what, probe, done, AWAIT);
    }

    /** {@link #await(String, Probe, Predicate)} for scenarios that span hours of scaled time. */
    static <T> T await(String what, Probe<T> probe, Predicate<T> done, Duration within) {
        Instant deadline = Instant.now().plus(within);
        try {
            T v = probe.get();
            while (!done.test(v)) {
                if (Instant.now().isAfter(deadline)) {
                    throw new AssertionError(what + " not reached within " + within + "; last: " + v);
                }
                LockSupport.parkNanos(Duration.ofMillis(10).toNanos());
                v = probe.get();
            }
            return v;
        } catch (AssertionError e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(what + ": " + e, e);
        }
    }

    LocalDate today() {
        return LocalDate.now(rt.clock());
    }
}
