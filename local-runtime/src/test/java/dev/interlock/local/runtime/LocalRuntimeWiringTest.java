package dev.interlock.local.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayProxyRequestEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayProxyResponseEvent;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.interlock.local.alerts.AlertSink;
import dev.interlock.local.aws.LocalArns;
import dev.interlock.model.alert.Alert;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.runtime.Environment;
import dev.interlock.runtime.aws.AwsClients;
import dev.interlock.wiring.Deps;
import dev.interlock.wiring.alert.SnsAlertPublisher;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/** Proves the runtime's wiring with stand-in functions: marker → stream → router → Step Functions → functions. */
class LocalRuntimeWiringTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final List<String> orchestratorCalls = new CopyOnWriteArrayList<>();

    private final FunctionSet stand_ins = new FunctionSet() {
        @Override
        public RequestStreamHandler orchestrator(Deps deps) {
            return (in, out, ctx) -> {
                JsonNode req = JSON.readTree(in);
                String action = req.path("action").asText();
                orchestratorCalls.add(action + ":" + req.path("pipelineId").asText());
                out.write(("{\"action\":\"" + action + "\",\"result\":\"skip\",\"reason\":\"excluded\",\"payload\":{}}")
                        .getBytes(StandardCharsets.UTF_8));
            };
        }

        @Override
        public RequestStreamHandler evaluator(Deps deps) {
            return (in, out, ctx) -> out.write("{}".getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public RequestStreamHandler trigger(Deps deps) {
            return evaluator(deps);
        }

        @Override
        public RequestStreamHandler runChecker(Deps deps) {
            return evaluator(deps);
        }

        /** Starts one execution per marker through the real SDK client, as the real router does. */
        @Override
        public RequestHandler<DynamodbEvent, StreamsEventResponse> streamRouter(Deps deps) {
            return (event, ctx) -> {
                for (var r : event.getRecords()) {
                    var image = r.getDynamodb().getNewImage();
                    deps.clients()
                            .stepFunctions()
                            .startExecution(b -> b.stateMachineArn(deps.environment()
                                            .get(dev.interlock.model.runtime.EnvVar.STATE_MACHINE_ARN))
                                    .name(image.get("pipelineId").getS() + "_m"
                                            + Math.abs(r.getDynamodb()
                                                    .getKeys()
                                                    .get("SK")
                                                    .getS()
                                                    .hashCode()))
                                    .input("{\"pipelineId\":\""
                                            + image.get("pipelineId").getS()
                                            + "\",\"scheduleId\":\"daily\",\"date\":\"2026-03-01\"}"));
                }
                return StreamsEventResponse.builder()
                        .withBatchItemFailures(List.of())
                        .build();
            };
        }

        @Override
        public RequestHandler<APIGatewayProxyRequestEvent, APIGatewayProxyResponseEvent> api(Deps deps) {
            return (event, ctx) ->
                    new APIGatewayProxyResponseEvent().withStatusCode(200).withBody("{\"status\":\"ok\"}");
        }
    };

    private static <T> T await(Supplier<T> probe, java.util.function.Predicate<T> done) {
        Instant deadline = Instant.now().plusSeconds(30);
        T value = probe.get();
        while (!done.test(value)) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("condition not reached; last value: " + value);
            }
            Thread.onSpinWait();
            value = probe.get();
        }
        return value;
    }

    @Test
    void aMarkerWrittenToTheTableStartsAnExecutionThatRunsTheRealMachineOnTheFunctions() throws Exception {
        try (LocalRuntime rt = LocalRuntime.start(RuntimeOptions.ephemeral(null, 1.0), stand_ins, s -> {}, a -> {});
                AwsClients clients = new AwsClients(Environment.of(Map.of(
                        "INTERLOCK_ENDPOINT_DYNAMODB", rt.dynamoDbEndpoint().toString(),
                        "INTERLOCK_ENDPOINT_STEPFUNCTIONS",
                                rt.stepFunctionsEndpoint().toString(),
                        "INTERLOCK_ENDPOINT_LAMBDA", rt.lambdaEndpoint().toString())))) {

            clients.dynamoDb()
                    .putItem(b -> b.tableName(LocalRuntime.TABLE_NAME)
                            .item(Map.of(
                                    "PK",
                                    AttributeValue.fromS("PIPELINE#silver"),
                                    "SK",
                                    AttributeValue.fromS("MARKER#manual#1"),
                                    "pipelineId",
                                    AttributeValue.fromS("silver"))));

            List<ExecutionListItem> done = await(
                    () -> clients.stepFunctions()
                            .listExecutions(b ->
                                    b.stateMachineArn(rt.stateMachineArn()).statusFilter(ExecutionStatus.SUCCEEDED))
                            .executions(),
                    l -> !l.isEmpty());
            assertThat(done).singleElement().satisfies(e -> assertThat(e.name()).startsWith("silver_m"));
            assertThat(orchestratorCalls)
                    .filteredOn(c -> !c.startsWith("watchdog:"))
                    .containsExactly("checkExclusion:silver");

            String watchdog = clients.lambda()
                    .invoke(b -> b.functionName("orchestrator")
                            .payload(SdkBytes.fromUtf8String(
                                    InterlockJson.write(OrchestratorAction.WATCHDOG.invocation(null)))))
                    .payload()
                    .asUtf8String();
            String answered = "\"action\":\"" + OrchestratorAction.WATCHDOG.wireName() + "\"";
            assertThat(watchdog).contains(answered);
            assertThat(rt.watchdogTick()).contains(answered);
            assertThat(rt.deadLetters()).isEmpty();
            assertThat(rt.apiEndpoint().getHost()).isEqualTo("127.0.0.1");
        }
    }

    @Test
    void alertsSurviveARestartOnTheSameDataDirectory(@TempDir Path dataDir) throws Exception {
        Alert alert = new Alert(
                AlertLevel.WARNING,
                AlertKind.SLA_MISSED,
                "gold",
                "daily",
                LocalDate.parse("2026-03-01"),
                "deadline 09:00 passed",
                null,
                Instant.parse("2026-03-01T09:01:00Z"));
        try (LocalRuntime rt = LocalRuntime.start(RuntimeOptions.ephemeral(dataDir, 1.0), stand_ins, s -> {}, a -> {});
                AwsClients clients = new AwsClients(Environment.of(
                        Map.of("INTERLOCK_ENDPOINT_SNS", rt.lambdaEndpoint().toString())))) {
            new SnsAlertPublisher(clients::sns, LocalArns.topic("interlock-alerts")).publish(alert);
            assertThat(rt.alerts().all().toString()).contains("SLA_MISSED gold");
        }
        List<AlertSink.ReceivedAlert> printedAgain = new CopyOnWriteArrayList<>();
        try (LocalRuntime rt =
                LocalRuntime.start(RuntimeOptions.ephemeral(dataDir, 1.0), stand_ins, s -> {}, printedAgain::add)) {
            assertThat(rt.alerts().all().toString()).contains("SLA_MISSED gold", "deadline 09:00 passed");
            assertThat(rt.alerts().all())
                    .singleElement()
                    .satisfies(
                            a -> assertThat(a.message().path("kind").asText()).isEqualTo("SLA_MISSED"));
            assertThat(printedAgain)
                    .as("alerts of an earlier run are listed, not announced again")
                    .isEmpty();
        }
    }

    @Test
    void theWatchdogTicksOnceAtStartUpAndThenOnItsInterval() throws Exception {
        List<String> progress = new CopyOnWriteArrayList<>();
        RuntimeOptions never = RuntimeOptions.ephemeral(null, 1.0).withWatchdogInterval(Duration.ofDays(36500));
        try (LocalRuntime rt = LocalRuntime.start(never, stand_ins, progress::add, a -> {})) {
            // No interval passes in this runtime's life: the one tick is the start-up tick.
            await(() -> orchestratorCalls.stream().filter("watchdog:"::equals).count(), n -> n == 1);
            assertThat(progress).contains("watchdog: every 876000h, first tick now");
        }
        orchestratorCalls.clear();
        progress.clear();
        // 5 minutes at time scale 300: a tick every second.
        RuntimeOptions often = RuntimeOptions.ephemeral(null, 300.0).withWatchdogInterval(Duration.ofMinutes(5));
        try (LocalRuntime rt = LocalRuntime.start(often, stand_ins, progress::add, a -> {})) {
            await(() -> orchestratorCalls.stream().filter("watchdog:"::equals).count(), n -> n >= 3);
            assertThat(progress).contains("watchdog: every 5m, first tick now");
        }
    }

    @Test
    void aRuntimeThatFailsToStartStopsWhatItStarted() {
        RuntimeOptions bad = new RuntimeOptions(
                0, 0, 0, 0, null, 1.0, Duration.ofMinutes(5), Duration.ofMinutes(1), Duration.ofMillis(50));
        FunctionSet broken = new FunctionSet() {
            public RequestStreamHandler orchestrator(Deps deps) {
                throw new IllegalStateException("no orchestrator");
            }

            public RequestStreamHandler evaluator(Deps deps) {
                return stand_ins.evaluator(deps);
            }

            public RequestStreamHandler trigger(Deps deps) {
                return stand_ins.trigger(deps);
            }

            public RequestStreamHandler runChecker(Deps deps) {
                return stand_ins.runChecker(deps);
            }

            public RequestHandler<DynamodbEvent, StreamsEventResponse> streamRouter(Deps deps) {
                return stand_ins.streamRouter(deps);
            }

            public RequestHandler<APIGatewayProxyRequestEvent, APIGatewayProxyResponseEvent> api(Deps deps) {
                return stand_ins.api(deps);
            }
        };
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> LocalRuntime.start(bad, broken, s -> {}, a -> {}))
                .hasMessageContaining("no orchestrator");
    }
}
