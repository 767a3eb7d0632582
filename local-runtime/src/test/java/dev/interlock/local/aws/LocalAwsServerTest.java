package dev.interlock.local.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.local.alerts.AlertSink;
import dev.interlock.model.alert.Alert;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.model.runtime.Environment;
import dev.interlock.runtime.aws.AwsClients;
import dev.interlock.wiring.alert.SnsAlertPublisher;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.lambda.model.InvocationType;
import software.amazon.awssdk.services.lambda.model.InvokeResponse;
import software.amazon.awssdk.services.lambda.model.ResourceNotFoundException;

class LocalAwsServerTest {

    private final FunctionRegistry registry = new FunctionRegistry();
    private final List<AlertSink.ReceivedAlert> printed = new CopyOnWriteArrayList<>();
    private final AlertSink sink =
            new AlertSink(Clock.fixed(Instant.parse("2026-03-01T00:00:00Z"), ZoneOffset.UTC), printed::add);
    private final CountDownLatch eventInvoked = new CountDownLatch(1);
    private LocalAwsServer server;
    private AwsClients clients;

    @BeforeEach
    void start() throws Exception {
        registry.register(
                "echo",
                (payload, ctx) -> ("{\"got\":" + new String(payload, StandardCharsets.UTF_8) + ",\"fn\":\""
                                + ctx.getFunctionName() + "\"}")
                        .getBytes(StandardCharsets.UTF_8));
        registry.register("broken", (payload, ctx) -> {
            throw new IllegalStateException("table missing");
        });
        registry.register("async", (payload, ctx) -> {
            eventInvoked.countDown();
            return new byte[0];
        });
        server = LocalAwsServer.start(0, registry, sink, LocalSecrets.load(null, Map.of()));
        clients = new AwsClients(Environment.of(Map.of(
                "INTERLOCK_ENDPOINT_LAMBDA", server.endpoint().toString(),
                "INTERLOCK_ENDPOINT_SNS", server.endpoint().toString())));
    }

    @AfterEach
    void stop() {
        clients.close();
        server.close();
    }

    @Test
    void invokesAFunctionByNameOrArnThroughTheRealLambdaClient() {
        InvokeResponse r = clients.lambda()
                .invoke(b -> b.functionName(LocalArns.function("echo") + ":live")
                        .payload(SdkBytes.fromUtf8String("{\"action\":\"watchdog\"}")));
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.functionError()).isNull();
        assertThat(r.payload().asUtf8String()).isEqualTo("{\"got\":{\"action\":\"watchdog\"},\"fn\":\"echo\"}");
    }

    @Test
    void aThrowingFunctionIsAnUnhandledFunctionError() {
        InvokeResponse r =
                clients.lambda().invoke(b -> b.functionName("broken").payload(SdkBytes.fromUtf8String("{}")));
        assertThat(r.functionError()).isEqualTo("Unhandled");
        assertThat(r.payload().asUtf8String())
                .isEqualTo(
                        "{\"errorMessage\":\"table missing\",\"errorType\":\"java.lang.IllegalStateException\",\"stackTrace\":[]}");
    }

    @Test
    void unknownFunctionsAreResourceNotFound() {
        assertThatThrownBy(() ->
                        clients.lambda().invoke(b -> b.functionName("nope").payload(SdkBytes.fromUtf8String("{}"))))
                .isInstanceOf(ResourceNotFoundException.class)
                .hasMessageContaining("function:nope");
    }

    @Test
    void eventInvocationsAreAcceptedAndRunInTheBackground() throws InterruptedException {
        InvokeResponse r = clients.lambda()
                .invoke(b -> b.functionName("async")
                        .invocationType(InvocationType.EVENT)
                        .payload(SdkBytes.fromUtf8String("{}")));
        assertThat(r.statusCode()).isEqualTo(202);
        assertThat(eventInvoked.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void snsPublishesFromTheFunctionsLandInTheAlertSink() {
        new SnsAlertPublisher(clients::sns, LocalArns.topic("interlock-alerts"))
                .publish(new Alert(
                        AlertLevel.WARNING,
                        AlertKind.SLA_MISSED,
                        "gold",
                        "daily",
                        LocalDate.parse("2026-03-01"),
                        "deadline 09:00 passed",
                        null,
                        Instant.parse("2026-03-01T09:01:00Z")));
        assertThat(sink.all()).singleElement().satisfies(a -> {
            assertThat(a.subject()).isEqualTo("[warning] SLA_MISSED gold");
            assertThat(a.topicArn()).isEqualTo("arn:aws:sns:us-east-1:000000000000:interlock-alerts");
            assertThat(a.message().get("kind").asText()).isEqualTo("SLA_MISSED");
            assertThat(a.message().get("pipelineId").asText()).isEqualTo("gold");
        });
        assertThat(printed).hasSize(1);
    }

    @Test
    void getFunctionAndListFunctionsDescribeTheRegisteredFunctionsPageByPage() {
        var lambda = clients.lambda();
        List<String> listed = new java.util.ArrayList<>();
        String marker = null;
        do {
            String from = marker;
            var page = lambda.listFunctions(b -> b.maxItems(2).marker(from));
            assertThat(page.functions()).hasSizeLessThanOrEqualTo(2);
            page.functions().forEach(f -> listed.add(f.functionName()));
            marker = page.nextMarker();
        } while (marker != null);
        assertThat(listed).containsExactly("async", "broken", "echo");

        var echo = lambda.getFunction(b -> b.functionName("echo")).configuration();
        assertThat(echo.functionArn()).isEqualTo(LocalArns.function("echo"));
        assertThat(echo.handler()).isEqualTo("echo::handleRequest");
        assertThat(echo.version()).isEqualTo("$LATEST");
        assertThatThrownBy(() -> lambda.getFunction(b -> b.functionName("nope")))
                .isInstanceOf(ResourceNotFoundException.class)
                .hasMessageContaining("Function not found");
    }

    @Test
    void logTypeTailReturnsWhatTheInvocationPrinted() {
        InvocationLog.install();
        registry.register("talker", (payload, ctx) -> {
            System.out.println("{\"logger\":\"talker\",\"message\":\"hello\"}");
            return "{}".getBytes(StandardCharsets.UTF_8);
        });
        InvokeResponse r = clients.lambda()
                .invoke(b -> b.functionName("talker").logType("Tail").payload(SdkBytes.fromUtf8String("{}")));
        String log = new String(java.util.Base64.getDecoder().decode(r.logResult()), StandardCharsets.UTF_8);
        assertThat(log)
                .startsWith("START RequestId: ")
                .contains("{\"logger\":\"talker\",\"message\":\"hello\"}\nEND RequestId: ")
                .contains("\nREPORT RequestId: ");
        assertThat(clients.lambda()
                        .invoke(b -> b.functionName("talker").payload(SdkBytes.fromUtf8String("{}")))
                        .logResult())
                .as("no log unless asked for")
                .isNull();
    }
}
