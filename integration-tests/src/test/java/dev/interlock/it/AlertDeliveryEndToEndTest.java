package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.local.runtime.FunctionSet;
import dev.interlock.local.runtime.ProductionFunctions;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.orchestrator.Orchestrator;
import dev.interlock.orchestrator.OrchestratorHandler;
import dev.interlock.orchestrator.OrchestratorSettings;
import dev.interlock.wiring.Deps;
import dev.interlock.wiring.alert.AlertPublisher;
import java.io.ByteArrayInputStream;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * Alerts are neither lost nor repeated: EXECUTION_ERROR is deduplicated like every other kind, and a function that
 * dies between claiming an alert and publishing it does not keep the alert from being sent by the next attempt.
 */
class AlertDeliveryEndToEndTest extends EndToEnd {

    /** Arms the orchestrator's publisher to die (as a crashed function would) on its next SLA_MISSED. */
    private final AtomicBoolean dieOnNextSlaMissed = new AtomicBoolean();

    /** The function that died mid-publish: an Error, which nothing between the publisher and the Lambda runtime catches. */
    static final class FunctionDied extends Error {
        FunctionDied() {
            super("the function died between claiming the alert and publishing it (injected)");
        }
    }

    @Override
    FunctionSet functions() {
        return new ProductionFunctions() {
            @Override
            public RequestStreamHandler orchestrator(Deps deps) {
                AlertPublisher publisher = alert -> {
                    if (alert.kind() == AlertKind.SLA_MISSED && dieOnNextSlaMissed.getAndSet(false)) {
                        throw new FunctionDied();
                    }
                    deps.alerts().publish(alert);
                };
                return new OrchestratorHandler(new Orchestrator(
                        deps.provider(),
                        deps.clock(),
                        publisher,
                        OrchestratorSettings.from(deps.environment()),
                        deps.log("orchestrator")));
            }

            @Override
            public RequestStreamHandler trigger(Deps deps) {
                RequestStreamHandler handler = super.trigger(deps);
                return (in, out, ctx) -> {
                    byte[] request = in.readAllBytes();
                    if (JSON.readTree(request).path("pipelineId").asText().equals("al-crash")) {
                        throw new IllegalStateException("trigger crashed (injected)");
                    }
                    handler.handleRequest(new ByteArrayInputStream(request), out, ctx);
                };
            }
        };
    }

    private String passing(String name, String extra) {
        return """
                name: %s
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%s/jobs/%s"}
                %s
                """.formatted(name, jobs.endpoint(), name, extra);
    }

    @Test
    void executionErrorsOfOneDayAreAlertedOnceAndEachIsAnEvent() {
        LocalDate date = today();
        putPipeline(passing("al-crash", ""));
        String first = evaluate("al-crash", date);
        assertThat(awaitDone(first)).isEqualTo(ExecutionStatus.FAILED);
        String second = evaluate("al-crash", date);
        assertThat(awaitDone(second)).isEqualTo(ExecutionStatus.FAILED);

        assertThat(visited(arnOf(first)))
                .endsWith("TriggerPipeline", "AlertError", "ReleaseLockAfterError", "ExecutionFailed");
        List<JsonNode> alerts = alerts("al-crash");
        assertThat(alerts).extracting(a -> a.path("kind").asText()).containsExactly("EXECUTION_ERROR");
        assertThat(alerts.getFirst().path("details").path("executionName").asText())
                .isEqualTo(first);
        assertThat(alerts.getFirst().path("details").path("error").path("Cause").asText())
                .contains("trigger crashed (injected)");
        List<JsonNode> events = eventsOf("al-crash", "EXECUTION_ERROR");
        assertThat(events)
                .extracting(e -> e.path("details").path("executionName").asText())
                .containsExactly(first, second);
        assertThat(call("GET", "/pipelines/al-crash/locks/daily/" + date, null, null)
                        .status())
                .isEqualTo(404);
    }

    @Test
    void anAlertWhosePublisherDiedAfterTheClaimIsSentOnceByTheNextAttempt() {
        LocalTime now = LocalTime.ofInstant(rt.clock().instant(), ZoneOffset.UTC);
        LocalTime deadline = now.plusMinutes(10).withSecond(0).withNano(0);
        assumeTrue(deadline.isAfter(now) && deadline.isBefore(LocalTime.of(23, 0)), "not across midnight UTC");
        LocalDate date = today();
        putPipeline(passing(
                "al-lease",
                "schedules: [{name: daily, deadline: \"" + deadline.format(DateTimeFormatter.ofPattern("HH:mm"))
                        + "\"}]"));
        Instant due = date.atTime(deadline).toInstant(ZoneOffset.UTC).plusSeconds(60);
        await("the deadline passed", () -> rt.clock().instant(), due::isBefore);

        dieOnNextSlaMissed.set(true);
        var died = aws.lambda()
                .invoke(b -> b.functionName("orchestrator").payload(SdkBytes.fromUtf8String(WATCHDOG_REQUEST)));
        assertThat(died.functionError()).as("the tick died mid-publish").isNotNull();
        assertThat(dieOnNextSlaMissed).isFalse();
        assertThat(alertKinds("al-lease")).isEmpty();

        // The claim the dead tick left behind expires after a short lease; the next tick claims again and sends.
        Instant leaseOver = rt.clock().instant().plusSeconds(300);
        await("the claim's lease is over", () -> rt.clock().instant(), leaseOver::isBefore);
        invokeWatchdog();
        invokeWatchdog();
        assertThat(alertKinds("al-lease")).containsExactly("SLA_MISSED");
    }
}
