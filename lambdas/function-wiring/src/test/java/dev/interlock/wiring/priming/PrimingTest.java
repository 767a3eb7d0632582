package dev.interlock.wiring.priming;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.interlock.log.LogContext;
import dev.interlock.log.StructuredLog;
import dev.interlock.model.runtime.Environment;
import dev.interlock.model.runtime.InterlockFunction;
import dev.interlock.runtime.aws.AwsClients;
import dev.interlock.runtime.outbound.GuardedHttp;
import dev.interlock.runtime.outbound.OutboundRequest;
import dev.interlock.runtime.outbound.OutboundResponse;
import dev.interlock.runtime.outbound.UrlGuard;
import dev.interlock.runtime.priming.OfflineMode;
import dev.interlock.runtime.priming.PrimingCredentialsProvider;
import dev.interlock.wiring.Deps;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.glue.model.StartJobRunResponse;
import software.amazon.awssdk.services.lambda.model.InvokeResponse;
import software.amazon.awssdk.services.sns.model.PublishResponse;

class PrimingTest {

    private HttpServer server;
    private final OfflineMode offline = new OfflineMode();
    private final List<String> received = new CopyOnWriteArrayList<>();
    private String endpoint;

    @BeforeEach
    void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            received.add(exchange.getRequestMethod() + " " + exchange.getRequestURI());
            byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/x-amz-json-1.0");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        endpoint = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach
    void stopServer() {
        server.stop(0);
    }

    private AwsClients clients() {
        return new AwsClients(
                Environment.of(Map.of(
                        "AWS_REGION",
                        "us-east-1",
                        "INTERLOCK_ENDPOINT_DYNAMODB",
                        endpoint,
                        "INTERLOCK_ENDPOINT_SNS",
                        endpoint,
                        "INTERLOCK_ENDPOINT_GLUE",
                        endpoint,
                        "INTERLOCK_ENDPOINT_LAMBDA",
                        endpoint)),
                offline);
    }

    @Test
    void whilePrimingAwsCallsAreAnsweredLocallyAndOtherwiseReachTheEndpoint() throws Exception {
        try (AwsClients clients = clients()) {
            GetItemResponse primed = offline.run(() -> clients.dynamoDb()
                    .getItem(b -> b.tableName("interlock")
                            .key(Map.of(
                                    "PK", AttributeValue.fromS("PIPELINE#p"), "SK", AttributeValue.fromS("CONFIG")))));
            assertThat(primed.hasItem()).isFalse();
            assertThat(received).isEmpty();
            assertThat(clients.answeredLocally()).isEqualTo(1);

            clients.dynamoDb()
                    .getItem(b -> b.tableName("interlock")
                            .key(Map.of(
                                    "PK", AttributeValue.fromS("PIPELINE#p"), "SK", AttributeValue.fromS("CONFIG"))));
            assertThat(received).hasSize(1);
            assertThat(clients.answeredLocally()).isEqualTo(1);
        }
    }

    @Test
    void primingIsTheStateOfOneRuntimeGivenToItsPartsNotAGlobalSwitch() throws Exception {
        OfflineMode otherRuntime = new OfflineMode();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StructuredLog mine = new StructuredLog(
                "mine", new PrintStream(out, true, StandardCharsets.UTF_8), Clock.systemUTC(), offline::active);
        StructuredLog theirs = new StructuredLog(
                "theirs", new PrintStream(out, true, StandardCharsets.UTF_8), Clock.systemUTC(), otherRuntime::active);
        try (AwsClients clients = clients()) {
            otherRuntime.run(() -> {
                // Another runtime primes on this thread: this runtime's clients and logs are not priming.
                clients.dynamoDb()
                        .getItem(b -> b.tableName("interlock")
                                .key(Map.of(
                                        "PK",
                                        AttributeValue.fromS("PIPELINE#p"),
                                        "SK",
                                        AttributeValue.fromS("CONFIG"))));
                mine.info(LogContext.NONE, "real", Map.of());
                theirs.info(LogContext.NONE, "rehearsal", Map.of());
                return null;
            });
            assertThat(received).hasSize(1);
            assertThat(clients.answeredLocally()).isZero();
        }
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("\"logger\":\"mine\"")
                .doesNotContain("rehearsal");
    }

    @Test
    void everyPartOfDepsIsGivenItsPrimingStateWhenBuilt() throws Exception {
        try (Deps deps = new Deps(
                Environment.of(Map.of(
                        "AWS_REGION", "us-east-1", "TABLE_NAME", "interlock", "INTERLOCK_ENDPOINT_DYNAMODB", endpoint)),
                Clock.systemUTC())) {
            OutboundResponse primed = deps.offline().run(() -> {
                deps.clients()
                        .dynamoDb()
                        .getItem(b -> b.tableName("interlock")
                                .key(Map.of(
                                        "PK",
                                        AttributeValue.fromS("PIPELINE#p"),
                                        "SK",
                                        AttributeValue.fromS("CONFIG"))));
                return deps.outboundHttp().send(OutboundRequest.get(URI.create(endpoint + "/status")));
            });
            assertThat(primed.body()).isEqualTo("{}");
            assertThat(received).isEmpty();
            assertThat(deps.clients().answeredLocally()).isEqualTo(1);
            // Outside the pass the same parts are real again.
            deps.clients()
                    .dynamoDb()
                    .getItem(b -> b.tableName("interlock")
                            .key(Map.of(
                                    "PK", AttributeValue.fromS("PIPELINE#p"), "SK", AttributeValue.fromS("CONFIG"))));
            assertThat(received).hasSize(1);
        }
    }

    @Test
    void aPrimingPassReadsBackWhatItPutAndNothingElse() throws Exception {
        Map<String, AttributeValue> key =
                Map.of("PK", AttributeValue.fromS("RUN#r"), "SK", AttributeValue.fromS("STATE"));
        Map<String, AttributeValue> item = new java.util.HashMap<>(key);
        item.put("status", AttributeValue.fromS("PENDING"));
        try (AwsClients clients = clients()) {
            GetItemResponse readBack = offline.run(() -> {
                clients.dynamoDb().putItem(b -> b.tableName("interlock").item(item));
                return clients.dynamoDb().getItem(b -> b.tableName("interlock").key(key));
            });
            assertThat(readBack.item()).isEqualTo(item);
            GetItemResponse otherTable = offline.run(() -> {
                clients.dynamoDb().putItem(b -> b.tableName("interlock").item(item));
                return clients.dynamoDb().getItem(b -> b.tableName("other").key(key));
            });
            assertThat(otherTable.hasItem()).isFalse();
            // A new pass starts empty.
            GetItemResponse nextPass = offline.run(() ->
                    clients.dynamoDb().getItem(b -> b.tableName("interlock").key(key)));
            assertThat(nextPass.hasItem()).isFalse();
            assertThat(received).isEmpty();
        }
    }

    @Test
    void everyProtocolGetsAnEmptySuccess() throws Exception {
        try (AwsClients clients = clients()) {
            // Query protocol (XML), JSON 1.1 and REST-JSON: each parses into an empty response.
            PublishResponse published = offline.run(() -> clients.sns()
                    .publish(b ->
                            b.topicArn("arn:aws:sns:us-east-1:123456789012:t").message("m")));
            StartJobRunResponse started = offline.run(() -> clients.glue().startJobRun(b -> b.jobName("j")));
            InvokeResponse invoked = offline.run(() -> clients.lambda().invoke(b -> b.functionName("f")));
            assertThat(published.sdkHttpResponse().isSuccessful()).isTrue();
            assertThat(started.jobRunId()).isNull();
            assertThat(invoked.statusCode()).isEqualTo(200);
            assertThat(received).isEmpty();
            assertThat(clients.answeredLocally()).isEqualTo(3);
        }
    }

    @Test
    void primingSignsWithPlaceholderCredentialsAndNeverAsksTheRealProvider() throws Exception {
        List<String> asked = new ArrayList<>();
        AwsCredentialsProvider real = () -> {
            asked.add("resolve");
            return AwsBasicCredentials.create("real", "secret");
        };
        PrimingCredentialsProvider provider = new PrimingCredentialsProvider(real, offline);
        assertThat(offline.run(provider::resolveCredentials).accessKeyId()).isEqualTo("INTERLOCKPRIMING");
        assertThat(asked).isEmpty();
        assertThat(provider.resolveCredentials().accessKeyId()).isEqualTo("real");
        assertThat(asked).containsExactly("resolve");
    }

    @Test
    void outboundHttpIsAnsweredWithoutALookupOrAConnection() throws Exception {
        // The guard would refuse loopback; while priming the request never gets that far.
        GuardedHttp http =
                GuardedHttp.create(UrlGuard.fromEnvironment(Environment.of(Map.of())), Clock.systemUTC(), offline);
        OutboundRequest request = OutboundRequest.get(URI.create(endpoint + "/status"));
        OutboundResponse primed = offline.run(() -> http.send(request));
        assertThat(primed.status()).isEqualTo(200);
        assertThat(primed.body()).isEqualTo("{}");
        assertThat(received).isEmpty();
    }

    @Test
    void logLinesWrittenWhilePrimingAreDropped() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StructuredLog log = new StructuredLog(
                "t", new PrintStream(out, true, StandardCharsets.UTF_8), Clock.systemUTC(), offline::active);
        offline.run(() -> {
            log.info(LogContext.NONE, "rehearsal", Map.of());
            return null;
        });
        log.info(LogContext.NONE, "real", Map.of());
        assertThat(out.toString(StandardCharsets.UTF_8))
                .doesNotContain("rehearsal")
                .contains("\"message\":\"real\"");
    }

    @Test
    void theFlagIsScopedToTheBodyAndTheThread() throws Exception {
        assertThat(offline.active()).isFalse();
        boolean[] other = new boolean[1];
        offline.run(() -> {
            assertThat(offline.active()).isTrue();
            Thread t = new Thread(() -> other[0] = offline.active());
            t.start();
            t.join();
            return null;
        });
        assertThat(other[0]).isFalse();
        assertThat(offline.active()).isFalse();
        assertThatThrownBy(() -> offline.run(() -> {
                    throw new IllegalStateException("boom");
                }))
                .hasMessage("boom");
        assertThat(offline.active()).isFalse();
    }

    @Test
    void primeRunsEveryBundledEventCountsFailuresAndNeverThrows() {
        List<String> seen = new ArrayList<>();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StructuredLog log =
                new StructuredLog("priming", new PrintStream(out, true, StandardCharsets.UTF_8), Clock.systemUTC());
        Priming.Report report = Priming.prime(
                offline,
                InterlockFunction.ORCHESTRATOR,
                PrimingTest.class,
                (event, context) -> {
                    String text = new String(event, StandardCharsets.UTF_8);
                    seen.add(text);
                    assertThat(offline.active()).isTrue();
                    assertThat(context.getFunctionName()).isEqualTo("orchestrator");
                    if (text.contains("fails")) {
                        throw new IllegalStateException("secret detail");
                    }
                },
                log);
        assertThat(seen).hasSize(3);
        assertThat(report.events()).isEqualTo(3);
        assertThat(report.failures()).isEqualTo(1);
        assertThat(report.errors()).containsExactly("java.lang.IllegalStateException: secret detail");
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains(
                        "\"message\":\"primed\"",
                        "\"events\":\"3\"",
                        "\"failures\":\"1\"",
                        "java.lang.IllegalStateException")
                .doesNotContain("secret detail");
    }

    @Test
    void aHandlerWithoutBundledEventsIsAClearError() {
        assertThatThrownBy(() -> Priming.events(String.class))
                .hasMessageContaining("no priming-events.json beside java.lang.String");
    }

    @Test
    void whenToPrimeFollowsTheModeAndLambdasInitialisationType() {
        assertThat(decide("auto", "on-demand")).isEqualTo(Priming.Decision.SKIPPED);
        assertThat(decide(null, null)).isEqualTo(Priming.Decision.SKIPPED);
        assertThat(decide("auto", "provisioned-concurrency")).isEqualTo(Priming.Decision.PRIMED_NOW);
        assertThat(decide("AUTO", "snap-start")).isEqualTo(Priming.Decision.BEFORE_SNAPSHOT);
        assertThat(decide("always", "on-demand")).isEqualTo(Priming.Decision.PRIMED_NOW);
        assertThat(decide("always", "snap-start")).isEqualTo(Priming.Decision.PRIMED_NOW);
        assertThat(decide("never", "snap-start")).isEqualTo(Priming.Decision.SKIPPED);
        assertThat(decide("never", "provisioned-concurrency")).isEqualTo(Priming.Decision.SKIPPED);
        assertThatThrownBy(() -> decide("sometimes", "on-demand"))
                .hasMessageContaining("INTERLOCK_PRIMING must be auto, always or never, got 'sometimes'");
    }

    @Test
    void underSnapStartPrimingRunsInTheBeforeCheckpointHook() {
        List<String> seen = new ArrayList<>();
        try (Deps deps =
                new Deps(Environment.of(Map.of("AWS_LAMBDA_INITIALIZATION_TYPE", "snap-start")), Clock.systemUTC())) {
            Priming.Decision decision = Priming.onInit(deps, InterlockFunction.ORCHESTRATOR, new EchoHandler(seen));
            assertThat(decision).isEqualTo(Priming.Decision.BEFORE_SNAPSHOT);
            // Not during init: the snapshot is taken after it, and priming belongs right before the snapshot.
            assertThat(seen).isEmpty();
            Priming.lastHook().runBeforeCheckpoint();
            assertThat(seen).hasSize(3);
        }
    }

    @Test
    void primingNeverBreaksInitEvenWithoutBundledEvents() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StructuredLog log =
                new StructuredLog("priming", new PrintStream(out, true, StandardCharsets.UTF_8), Clock.systemUTC());
        Priming.Report report =
                Priming.prime(offline, InterlockFunction.API, String.class, (event, context) -> {}, log);
        assertThat(report.events()).isZero();
        assertThat(report.failures()).isEqualTo(1);
        assertThat(report.errors().getFirst()).contains("no priming-events.json beside java.lang.String");
    }

    /** A stream handler that records the events it is given (its priming events are this package's). */
    static final class EchoHandler implements com.amazonaws.services.lambda.runtime.RequestStreamHandler {
        private final List<String> seen;

        EchoHandler(List<String> seen) {
            this.seen = seen;
        }

        @Override
        public void handleRequest(
                java.io.InputStream in, java.io.OutputStream out, com.amazonaws.services.lambda.runtime.Context context)
                throws IOException {
            seen.add(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    private static Priming.Decision decide(String mode, String initType) {
        Map<String, String> env = new java.util.HashMap<>();
        if (mode != null) {
            env.put("INTERLOCK_PRIMING", mode);
        }
        if (initType != null) {
            env.put("AWS_LAMBDA_INITIALIZATION_TYPE", initType);
        }
        try (Deps deps = new Deps(Environment.of(env), Clock.systemUTC())) {
            List<String> seen = new ArrayList<>();
            return Priming.onInit(deps, InterlockFunction.ORCHESTRATOR, new EchoHandler(seen));
        }
    }

    @Test
    void credentialReadsAreRehearsedThroughTheRealClientsWithoutARequestOrACachedValue() throws Exception {
        Map<String, String> env = new java.util.HashMap<>(Map.of(
                "AWS_REGION",
                "us-east-1",
                "TABLE_NAME",
                "interlock",
                "INTERLOCK_ENDPOINT_SECRETSMANAGER",
                endpoint,
                "INTERLOCK_ENDPOINT_SSM",
                endpoint,
                "INTERLOCK_SECRETS_PREFIX",
                "interlock-",
                "INTERLOCK_SSM_PARAMETER_PREFIX",
                "/interlock-",
                "INTERLOCK_SECRET_HOSTS",
                "secret:interlock-*=jobs.example.com"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StructuredLog log =
                new StructuredLog("priming", new PrintStream(out, true, StandardCharsets.UTF_8), Clock.systemUTC());
        try (Deps deps = new Deps(Environment.of(env), Clock.systemUTC())) {
            Priming.primeCredentialReads(deps, InterlockFunction.TRIGGER, log);

            assertThat(out.toString(StandardCharsets.UTF_8))
                    .contains("\"message\":\"primed credential reads\"")
                    .contains("\"errors\":\"\"");
            assertThat(deps.clients().created("secretsmanager")).isTrue();
            assertThat(deps.clients().created("ssm")).isTrue();
            assertThat(received).isEmpty();
            // Nothing was cached: the first real read goes to Secrets Manager (whose answer here has no SecretString).
            assertThatThrownBy(() -> deps.outboundTemplates()
                            .rendering(new dev.interlock.model.trigger.TemplateValues("p", "daily", null, "r"))
                            .text("${secret:interlock-priming}", URI.create("https://jobs.example.com"), "body"))
                    .isInstanceOf(dev.interlock.runtime.outbound.OutboundException.CredentialUnavailable.class)
                    .hasMessage(
                            "Secrets Manager secret 'interlock-priming' has no SecretString (binary secrets cannot be "
                                    + "sent in a request)");
            assertThat(received).hasSize(1);
        }
    }

    @Test
    void rehearsingCredentialReadsOutsidePrimingIsRefused() {
        try (Deps deps = new Deps(Environment.of(Map.of("TABLE_NAME", "interlock")), Clock.systemUTC())) {
            assertThatThrownBy(() -> deps.outboundTemplates().rehearseCredentialReads())
                    .isInstanceOf(IllegalStateException.class);
        }
    }
}
