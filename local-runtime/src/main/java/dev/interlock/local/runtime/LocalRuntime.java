package dev.interlock.local.runtime;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayProxyRequestEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayProxyResponseEvent;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import dev.interlock.local.alerts.AlertSink;
import dev.interlock.local.api.LocalApiServer;
import dev.interlock.local.aws.FunctionOutcome;
import dev.interlock.local.aws.FunctionRegistry;
import dev.interlock.local.aws.InvocationLog;
import dev.interlock.local.aws.LocalArns;
import dev.interlock.local.aws.LocalAwsServer;
import dev.interlock.local.aws.LocalContext;
import dev.interlock.local.aws.LocalFunction;
import dev.interlock.local.aws.LocalSecrets;
import dev.interlock.local.dynamodb.LocalDynamoDb;
import dev.interlock.local.dynamodb.TtlSweeper;
import dev.interlock.local.events.EventBridgeApi;
import dev.interlock.local.events.LocalEventBus;
import dev.interlock.local.jobs.JobFakes;
import dev.interlock.local.sfn.InterlockStateMachine;
import dev.interlock.local.sfn.LocalStepFunctionsServer;
import dev.interlock.local.stream.Checkpoints;
import dev.interlock.local.stream.StreamPoller;
import dev.interlock.local.stream.StreamRecordConverter;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.runtime.EnvVar;
import dev.interlock.model.runtime.Environment;
import dev.interlock.model.runtime.InterlockFunction;
import dev.interlock.model.runtime.TableDefinition;
import dev.interlock.model.secret.OutboundPolicy;
import dev.interlock.model.secret.SecretHosts;
import dev.interlock.statemachine.engine.ExecutionStore;
import dev.interlock.statemachine.engine.ScaledRealClock;
import dev.interlock.statemachine.engine.StateMachine;
import dev.interlock.store.dynamodb.InterlockTable;
import dev.interlock.streamrouter.LineageSettings;
import dev.interlock.wiring.Deps;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;

/**
 * The whole system on one machine, in one JVM: DynamoDB Local with the shared table definition, the stream poller
 * feeding the stream router, the local Step Functions service running the real ASL file with the functions in
 * process, the Lambda/SNS and Step Functions endpoints speaking the AWS protocols, job fakes for the AWS job types
 * with a local EventBridge bus and the job-state rules, the API, the alert sink, the TTL sweeper and the watchdog
 * tick — all on 127.0.0.1. It is the users' {@code interlock up} and the fixture of
 * the integration tests.
 */
public final class LocalRuntime implements AutoCloseable {

    public static final String TABLE_NAME = "interlock";

    private final RuntimeOptions options;
    private final Deque<AutoCloseable> toClose = new ArrayDeque<>();
    private final List<StreamPoller.DeadLetter> deadLetters = new CopyOnWriteArrayList<>();
    private ScaledRealClock engineClock;
    private Clock clock;
    private LocalDynamoDb dynamoDb;
    private LocalStepFunctionsServer stepFunctions;
    private LocalAwsServer aws;
    private LocalApiServer api;
    private StateMachine stateMachine;
    private AlertSink alerts;
    private FunctionRegistry functions;
    private StreamPoller poller;
    private TtlSweeper sweeper;
    private Deps deps;
    private LocalEventBus eventBus;
    private JobFakes jobs;
    private EventBridgeClient eventBridge;

    private LocalRuntime(RuntimeOptions options) {
        this.options = options;
    }

    /** Starts everything; on failure, whatever started is stopped again before the exception propagates. */
    public static LocalRuntime start(
            RuntimeOptions options,
            FunctionSet functionSet,
            Consumer<String> progress,
            Consumer<AlertSink.ReceivedAlert> alertPrinter)
            throws Exception {
        return start(options, functionSet, progress, alertPrinter, null);
    }

    /**
     * Starts everything and tells {@code narration} one line per evaluation request, verdict, trigger and completion
     * ({@link Narration}); a taken port is a {@link PortInUseException}.
     */
    public static LocalRuntime start(
            RuntimeOptions options,
            FunctionSet functionSet,
            Consumer<String> progress,
            Consumer<AlertSink.ReceivedAlert> alertPrinter,
            Consumer<String> narration)
            throws Exception {
        LocalRuntime rt = new LocalRuntime(options);
        try {
            rt.boot(functionSet, progress, alertPrinter, narration);
            return rt;
        } catch (Exception | Error e) {
            rt.close();
            throw e;
        }
    }

    private void boot(
            FunctionSet functionSet,
            Consumer<String> progress,
            Consumer<AlertSink.ReceivedAlert> alertPrinter,
            Consumer<String> narration)
            throws Exception {
        EngineClockPosition clockPosition =
                options.dataDir() == null ? null : new EngineClockPosition(options.dataDir());
        Instant clockStart = options.clockStart() != null ? options.clockStart() : Instant.now();
        engineClock = new ScaledRealClock(
                options.timeScale(), clockPosition == null ? clockStart : clockPosition.start(clockStart));
        clock = new EngineTimeClock(engineClock);
        // Before any function exists: their loggers hold on to the standard output they find.
        InvocationLog.install();
        alerts = options.dataDir() == null
                ? new AlertSink(clock, alertPrinter)
                : AlertSink.persistent(clock, alertPrinter, options.dataDir().resolve("alerts.jsonl"));
        toClose.push(alerts);
        functions = new FunctionRegistry();

        progress.accept("starting DynamoDB Local"
                + (options.dataDir() == null ? " (in memory)" : " (data in " + options.dataDir() + ")"));
        dynamoDb = track(bound(
                PortInUseException.Port.DYNAMODB,
                options.dynamoDbPort(),
                () -> LocalDynamoDb.start(
                        options.dynamoDbPort(),
                        options.dataDir() == null ? null : options.dataDir().resolve("dynamodb"))));

        LocalEventBus bus = new LocalEventBus();
        eventBus = bus;
        stateMachine = InterlockStateMachine.build(
                functions,
                alerts,
                engineClock,
                options.dataDir() == null
                        ? ExecutionStore.inMemory()
                        : ExecutionStore.inDirectory(
                                options.dataDir().resolve("executions").resolve(InterlockStateMachine.NAME)),
                ended -> EventRules.publishEnd(bus, ended));
        EventRules.addRules(eventBus, functions, stateMachine.arn());
        jobs = new JobFakes(
                engineClock,
                this::eventBridge,
                options.dataDir() == null ? null : options.dataDir().resolve("job-fakes"),
                options.jobStartHolds());
        stepFunctions = track(bound(
                PortInUseException.Port.STEP_FUNCTIONS,
                options.stepFunctionsPort(),
                () -> LocalStepFunctionsServer.start(options.stepFunctionsPort(), jobs.stepFunctions(), stateMachine)));
        LocalSecrets secrets = LocalSecrets.load(options.secretsFile(), visibleEnvironment());
        if (options.secretsFile() != null) {
            progress.accept("serving " + secrets.size() + " secret(s) and parameter(s) from " + options.secretsFile());
        }
        aws = track(bound(
                PortInUseException.Port.LAMBDA,
                options.lambdaPort(),
                () -> LocalAwsServer.start(
                        options.lambdaPort(), functions, alerts, jobs, new EventBridgeApi(eventBus, clock), secrets)));
        progress.accept("AWS job fakes (Glue, EMR, EMR Serverless, Lambda; Step Functions on its own endpoint) and "
                + "EventBridge PutEvents at " + aws.endpoint());

        // The runtime's own calls (creating the table, the TTL sweep) are not a function's: they get Deps of their own.
        deps = track(new Deps(Environment.of(functionEnvironment()), clock));
        boolean created =
                InterlockTable.createIfAbsent(deps.clients().dynamoDb(), TABLE_NAME, TableDefinition.INTERLOCK);
        progress.accept(created ? "created table " + TABLE_NAME : "found table " + TABLE_NAME);

        functions.register(
                InterlockStateMachine.functionName(InterlockFunction.ORCHESTRATOR),
                LocalFunction.of(functionSet.orchestrator(depsOf(InterlockFunction.ORCHESTRATOR))));
        functions.register(
                InterlockStateMachine.functionName(InterlockFunction.EVALUATOR),
                LocalFunction.of(functionSet.evaluator(depsOf(InterlockFunction.EVALUATOR))));
        functions.register(
                InterlockStateMachine.functionName(InterlockFunction.TRIGGER),
                LocalFunction.of(functionSet.trigger(depsOf(InterlockFunction.TRIGGER))));
        functions.register(
                InterlockStateMachine.functionName(InterlockFunction.RUN_CHECKER),
                LocalFunction.of(functionSet.runChecker(depsOf(InterlockFunction.RUN_CHECKER))));

        RequestHandler<DynamodbEvent, StreamsEventResponse> router =
                functionSet.streamRouter(depsOf(InterlockFunction.STREAM_ROUTER));
        functions.register(
                InterlockStateMachine.functionName(InterlockFunction.STREAM_ROUTER),
                LocalFunction.of(router, DynamodbEvent.class));
        String streamArn = deps.clients()
                .dynamoDb()
                .describeTable(b -> b.tableName(TABLE_NAME))
                .table()
                .latestStreamArn();
        var streamsClient = software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient.builder()
                .endpointOverride(dynamoDb.endpoint())
                .region(software.amazon.awssdk.regions.Region.of(LocalArns.REGION))
                .credentialsProvider(software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
                        software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create("local", "local")))
                .httpClient(software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient.create())
                .build();
        toClose.push(streamsClient);
        Checkpoints checkpoints = options.dataDir() == null
                ? Checkpoints.inMemory()
                : Checkpoints.inFile(options.dataDir().resolve("stream-checkpoints.json"));
        poller = track(new StreamPoller(
                streamsClient,
                streamArn,
                TableDefinition.INTERLOCK,
                new StreamRecordConverter(LocalArns.REGION, streamArn),
                batch -> router.handleRequest(batch, new LocalContext("stream-router", 300_000)),
                checkpoints,
                new StreamPoller.Settings(
                        10,
                        3,
                        Duration.ofMillis(200),
                        options.streamPollInterval(),
                        LineageSettings.from(Environment.of(functionEnvironment()))
                                .emits()),
                dead -> {
                    deadLetters.add(dead);
                    System.err.println("stream record " + dead.sequenceNumber() + " sent to the dead-letter list: "
                            + dead.reason());
                },
                d -> Thread.sleep(d.toMillis())));
        if (narration != null) {
            poller.observeEveryRecord(new Narration(narration, clock));
        }
        poller.start();

        RequestHandler<APIGatewayProxyRequestEvent, APIGatewayProxyResponseEvent> apiFunction =
                functionSet.api(depsOf(InterlockFunction.API));
        functions.register(
                InterlockStateMachine.functionName(InterlockFunction.API),
                LocalFunction.of(apiFunction, APIGatewayProxyRequestEvent.class));
        api = track(bound(
                PortInUseException.Port.API,
                options.apiPort(),
                () -> LocalApiServer.start(options.apiPort(), apiFunction)));

        sweeper = new TtlSweeper(deps.clients().dynamoDb(), TABLE_NAME, TableDefinition.INTERLOCK, clock);
        ScheduledExecutorService ticks = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "interlock-ticks");
            t.setDaemon(true);
            return t;
        });
        toClose.push(ticks::shutdownNow);
        schedule(ticks, options.sweepInterval(), false, "TTL sweep", sweeper::sweepOnce);
        // Like the EventBridge rule, but also once at start-up: evaluations are due now, not one interval after `up`
        // (and a restart on a data directory catches up what fell due while it was down).
        schedule(ticks, options.watchdogInterval(), true, "watchdog", this::watchdogTick);
        progress.accept("watchdog: every " + humanDuration(options.watchdogInterval()) + ", first tick now");
        if (clockPosition != null) {
            ticks.scheduleWithFixedDelay(() -> clockPosition.save(engineClock.now()), 1, 1, TimeUnit.SECONDS);
            toClose.push(() -> clockPosition.save(engineClock.now()));
        }

        // Last to start, first to stop: executions stop before the functions and stores they call, so a durable one
        // stays where it stood; the ones a data directory kept continue now that everything they call is up.
        toClose.push(stateMachine);
        List<String> resumed = stateMachine.executionsToResume();
        stateMachine.resumeExecutions();
        // The job fakes' runs go on too: each still ends at its due time and publishes its job-state event. (The fakes
        // read their runs back when they were made, before their endpoints served a call: a resumed trigger or the
        // watchdog's first tick asking about a job finds it however early it asks.)
        jobs.resumeRuns();
        if (!resumed.isEmpty()) {
            progress.accept("resumed " + resumed.size() + " execution(s) from " + options.dataDir() + ": "
                    + String.join(", ", resumed));
        }
    }

    private void schedule(
            ScheduledExecutorService ticks, Duration scaledInterval, boolean now, String what, Runnable task) {
        long realMillis = Math.max(50, (long) (scaledInterval.toMillis() / options.timeScale()));
        ticks.scheduleWithFixedDelay(
                () -> {
                    try {
                        task.run();
                    } catch (RuntimeException e) {
                        if (ticks.isShutdown()) {
                            // The runtime is stopping and interrupted the tick (the SDK reports it as
                            // AbortedException):
                            // nothing failed, and Ctrl-C must end with the one line the CLI prints.
                            return;
                        }
                        System.err.println(what + " failed, trying again at the next tick: " + e);
                    }
                },
                now ? 0 : realMillis,
                realMillis,
                TimeUnit.MILLISECONDS);
    }

    /** {@code 5m}, {@code 1h30m}, {@code 45s}: how a person writes an interval. */
    static String humanDuration(Duration d) {
        StringBuilder text = new StringBuilder();
        if (d.toHours() > 0) {
            text.append(d.toHours()).append('h');
        }
        if (d.toMinutesPart() > 0) {
            text.append(d.toMinutesPart()).append('m');
        }
        if (d.toSecondsPart() > 0 || text.isEmpty()) {
            text.append(d.toSecondsPart()).append('s');
        }
        return text.toString();
    }

    /** The job fakes' EventBridge client, on the local endpoint; created with the first event. */
    private synchronized EventBridgeClient eventBridge() {
        if (eventBridge == null) {
            eventBridge = EventBridgeClient.builder()
                    .endpointOverride(aws.endpoint())
                    .region(software.amazon.awssdk.regions.Region.of(LocalArns.REGION))
                    .credentialsProvider(software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
                            software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create("local", "local")))
                    .httpClient(software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient.create())
                    .build();
            toClose.push(eventBridge);
        }
        return eventBridge;
    }

    /** What the EventBridge watchdog rule does on AWS: invoke the orchestrator's {@link OrchestratorAction#WATCHDOG}. */
    public String watchdogTick() {
        FunctionOutcome outcome = FunctionOutcome.invoke(
                functions,
                InterlockStateMachine.functionName(InterlockFunction.ORCHESTRATOR),
                InterlockJson.write(OrchestratorAction.WATCHDOG.invocation(null))
                        .getBytes(StandardCharsets.UTF_8),
                300_000);
        if (outcome.failed()) {
            throw new IllegalStateException("watchdog failed: " + outcome.errorType() + ": " + outcome.errorMessage());
        }
        return new String(outcome.payload(), StandardCharsets.UTF_8);
    }

    /** Waits until the API answers {@code GET /health} with 200; what {@code interlock up} prints "ready" after. */
    public void awaitHealthy(Duration timeout) throws InterruptedException {
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        java.time.Instant deadline = java.time.Instant.now().plus(timeout);
        while (java.time.Instant.now().isBefore(deadline)) {
            try {
                var request = java.net.http.HttpRequest.newBuilder(URI.create(apiEndpoint() + "/health"))
                        .build();
                if (http.send(request, java.net.http.HttpResponse.BodyHandlers.discarding())
                                .statusCode()
                        == 200) {
                    return;
                }
            } catch (java.io.IOException notYet) {
                // The socket is bound before start() returns; a refusal means the server is still warming up.
            }
            Thread.sleep(20);
        }
        throw new IllegalStateException("the API did not answer GET /health with 200 within " + timeout);
    }

    /** Waits until the state machine has an execution matching {@code match} (started by the stream router). */
    public dev.interlock.statemachine.engine.ExecutionSummary awaitExecution(
            java.util.function.Predicate<dev.interlock.statemachine.engine.ExecutionSummary> match, Duration timeout)
            throws InterruptedException {
        java.time.Instant deadline = java.time.Instant.now().plus(timeout);
        while (java.time.Instant.now().isBefore(deadline)) {
            for (var e : stateMachine.listExecutions(null)) {
                if (match.test(e)) {
                    return e;
                }
            }
            Thread.sleep(2);
        }
        throw new IllegalStateException("no matching execution within " + timeout);
    }

    /**
     * One function's Deps, as on Lambda where each function is its own container: its own clients, and Lambda's
     * {@code AWS_LAMBDA_FUNCTION_NAME} (the module name), which names its AWS requests when they are recorded
     * ({@code INTERLOCK_AWS_REQUEST_LOG_DIR}).
     */
    private Deps depsOf(InterlockFunction function) {
        Map<String, String> env = functionEnvironment();
        env.put(EnvVar.AWS_LAMBDA_FUNCTION_NAME.name(), InterlockStateMachine.functionName(function));
        return track(new Deps(Environment.of(env), clock));
    }

    /** The process's environment with the options' variables over it. */
    private Map<String, String> visibleEnvironment() {
        Map<String, String> env = new LinkedHashMap<>(System.getenv());
        env.putAll(options.environment());
        return env;
    }

    /**
     * The environment the functions see: local endpoints, loopback URLs allowed, the process's and the options'
     * {@code INTERLOCK_*} values (not the local secret stand-ins, which only {@link LocalSecrets} reads). Unless set
     * there, every credential may go to every host and every secret and parameter name may be read: here they are all
     * local stand-ins, and the secrets file is the whole store.
     */
    Map<String, String> functionEnvironment() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put(EnvVar.INTERLOCK_SECRET_HOSTS.name(), SecretHosts.ANY);
        env.put(EnvVar.INTERLOCK_SECRETS_PREFIX.name(), OutboundPolicy.ANY_NAME);
        env.put(EnvVar.INTERLOCK_SSM_PARAMETER_PREFIX.name(), OutboundPolicy.ANY_NAME);
        visibleEnvironment().forEach((k, v) -> {
            // OPENLINEAGE_*: where run events go, and whether run changes reach the router (docs/openlineage.md).
            if ((k.startsWith("INTERLOCK_") && !k.startsWith(LocalSecrets.ENVIRONMENT_PREFIX))
                    || k.startsWith("OPENLINEAGE_")) {
                env.put(k, v);
            }
        });
        env.put(EnvVar.TABLE_NAME.name(), TABLE_NAME);
        env.put(EnvVar.AWS_REGION.name(), LocalArns.REGION);
        env.put(EnvVar.STATE_MACHINE_ARN.name(), stateMachine.arn());
        env.put(EnvVar.ALERT_TOPIC_ARN.name(), LocalArns.topic(InterlockStateMachine.ALERT_TOPIC));
        env.put(EnvVar.INTERLOCK_ALLOW_PRIVATE_URLS.name(), "true");
        env.put(EnvVar.INTERLOCK_ENDPOINT_DYNAMODB.name(), dynamoDb.endpoint().toString());
        env.put(
                EnvVar.INTERLOCK_ENDPOINT_STEPFUNCTIONS.name(),
                stepFunctions.endpoint().toString());
        env.put(EnvVar.INTERLOCK_ENDPOINT_LAMBDA.name(), aws.endpoint().toString());
        env.put(EnvVar.INTERLOCK_ENDPOINT_SNS.name(), aws.endpoint().toString());
        env.put(EnvVar.INTERLOCK_ENDPOINT_SECRETSMANAGER.name(), aws.endpoint().toString());
        env.put(EnvVar.INTERLOCK_ENDPOINT_SSM.name(), aws.endpoint().toString());
        env.put(EnvVar.INTERLOCK_ENDPOINT_GLUE.name(), aws.endpoint().toString());
        env.put(EnvVar.INTERLOCK_ENDPOINT_LOGS.name(), aws.endpoint().toString());
        env.put(EnvVar.INTERLOCK_ENDPOINT_EMR.name(), aws.endpoint().toString());
        env.put(EnvVar.INTERLOCK_ENDPOINT_EMR_SERVERLESS.name(), aws.endpoint().toString());
        env.put(EnvVar.INTERLOCK_ENDPOINT_EVENTS.name(), aws.endpoint().toString());
        return env;
    }

    /** Starts a server on {@code number}; a refusal to bind names the port and the option that moves it. */
    private static <T> T bound(PortInUseException.Port port, int number, java.util.concurrent.Callable<T> start)
            throws Exception {
        try {
            return start.call();
        } catch (Exception e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof java.net.BindException) {
                    throw new PortInUseException(port, number, e);
                }
            }
            throw e;
        }
    }

    private <T extends AutoCloseable> T track(T resource) {
        toClose.push(resource);
        return resource;
    }

    public URI apiEndpoint() {
        return api.endpoint();
    }

    public URI lambdaEndpoint() {
        return aws.endpoint();
    }

    public URI stepFunctionsEndpoint() {
        return stepFunctions.endpoint();
    }

    public URI dynamoDbEndpoint() {
        return dynamoDb.endpoint();
    }

    public String stateMachineArn() {
        return stateMachine.arn();
    }

    public StateMachine stateMachine() {
        return stateMachine;
    }

    public AlertSink alerts() {
        return alerts;
    }

    /** The job fakes (Glue, EMR, EMR Serverless, Step Functions, Lambda) the runtime serves. */
    public JobFakes jobFakes() {
        return jobs;
    }

    /** The local default event bus: what the job fakes published and what the job-state rules delivered. */
    public LocalEventBus eventBus() {
        return eventBus;
    }

    public Clock clock() {
        return clock;
    }

    public List<StreamPoller.DeadLetter> deadLetters() {
        return List.copyOf(deadLetters);
    }

    /** Stops everything in reverse start order; safe to call twice. */
    @Override
    public void close() {
        while (!toClose.isEmpty()) {
            try {
                toClose.pop().close();
            } catch (Exception e) {
                System.err.println("stopping " + e + " failed");
            }
        }
    }
}
