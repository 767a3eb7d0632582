package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.interlock.local.runtime.FunctionSet;
import dev.interlock.local.runtime.ProductionFunctions;
import dev.interlock.wiring.Deps;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;
import software.amazon.awssdk.services.sfn.model.HistoryEvent;
import software.amazon.awssdk.services.sfn.model.HistoryEventType;

/**
 * Functions that throw: a throttled Lambda (the error the machine retries) and an evaluator that crashes (the error
 * the evaluation Map catches and turns into an ERROR result). The real handlers run behind a thin wrapper that
 * throws on the next armed call.
 */
class FaultInjectionTest extends EndToEnd {

    private final AtomicInteger throttleTriggerCalls = new AtomicInteger();
    private final AtomicInteger crashEvaluatorCalls = new AtomicInteger();

    @Override
    FunctionSet functions() {
        return new ProductionFunctions() {
            @Override
            public RequestStreamHandler orchestrator(Deps deps) {
                return super.orchestrator(deps);
            }

            @Override
            public RequestStreamHandler evaluator(Deps deps) {
                RequestStreamHandler handler = super.evaluator(deps);
                return (in, out, ctx) -> {
                    if (crashEvaluatorCalls.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                        throw new IllegalStateException("evaluator crashed (injected)");
                    }
                    handler.handleRequest(in, out, ctx);
                };
            }

            @Override
            public RequestStreamHandler trigger(Deps deps) {
                RequestStreamHandler handler = super.trigger(deps);
                return (in, out, ctx) -> {
                    if (throttleTriggerCalls.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                        throw new Lambda.TooManyRequestsException();
                    }
                    handler.handleRequest(in, out, ctx);
                };
            }
        };
    }

    private String pipeline(String name, String freshnessEvaluator) {
        return """
                name: %s
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "%s"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%s/jobs/%s"}
                evaluationIntervalSeconds: 60
                """.formatted(name, freshnessEvaluator, jobs.endpoint(), name);
    }

    private List<HistoryEvent> history(String arn) {
        List<HistoryEvent> events = new ArrayList<>();
        aws.stepFunctions()
                .getExecutionHistoryPaginator(b -> b.executionArn(arn))
                .events()
                .forEach(events::add);
        return events;
    }

    @Test
    void aThrottledTriggerIsRetriedByStepFunctionsAndTheJobStartsOnce() {
        LocalDate date = today();
        putPipeline(pipeline("fault-throttle", "builtin:always-pass"));
        throttleTriggerCalls.set(1);
        String name = evaluate("fault-throttle", date);

        assertThat(awaitDone(name)).isEqualTo(ExecutionStatus.SUCCEEDED);
        List<HistoryEvent> history = history(arnOf(name));
        List<String> failures = history.stream()
                .filter(e ->
                        e.type() == HistoryEventType.TASK_FAILED || e.type() == HistoryEventType.LAMBDA_FUNCTION_FAILED)
                .map(e -> e.taskFailedEventDetails() != null
                        ? e.taskFailedEventDetails().error()
                        : e.lambdaFunctionFailedEventDetails().error())
                .toList();
        assertThat(failures).containsExactly("Lambda.TooManyRequestsException");
        // The retry happens inside the Task: the state is entered once, the function called twice.
        assertThat(visited(arnOf(name)).stream().filter("TriggerPipeline"::equals))
                .hasSize(1);
        assertThat(visited(arnOf(name))).doesNotContain("AlertError", "LogTriggerFailed", "WaitForRetryWindow");
        assertThat(jobs.triggersOf("fault-throttle")).isEqualTo(1);
        assertThat(runLogStatus("fault-throttle", date, "daily")).isEqualTo("COMPLETED");
        assertThat(runLog("fault-throttle", date, "daily").path("attemptNumber").asInt())
                .isZero();
        assertThat(runs("fault-throttle"))
                .extracting(r -> r.path("status").asText())
                .containsExactly("COMPLETED");
        assertThat(alerts("fault-throttle")).isEmpty();
    }

    @Test
    void anEvaluatorCrashIsAnErrorResultThatAlertsAndIsReEvaluated() {
        LocalDate date = today();
        putPipeline(pipeline("fault-crash", "builtin:always-pass"));
        crashEvaluatorCalls.set(1);
        String name = evaluate("fault-crash", date);

        assertThat(awaitDone(name)).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(visited(arnOf(name)))
                .containsSubsequence(
                        "EvaluateTraits",
                        "CheckReadiness",
                        "IsReady",
                        "WaitBeforeReevaluation",
                        "EvaluateTraits",
                        "CheckReadiness",
                        "IsReady",
                        "TriggerPipeline",
                        "LogCompleted",
                        "Done")
                .doesNotContain("AlertError");
        assertThat(visited(arnOf(name))).contains("EvaluateTraitFailed");
        assertThat(eventsOf("fault-crash", "READINESS_CHECKED"))
                .extracting(e -> e.path("status").asText())
                .containsExactly("NOT_READY", "READY");
        assertThat(alertKinds("fault-crash")).containsExactly("TRAIT_ERROR");
        assertThat(jobs.triggersOf("fault-crash")).isEqualTo(1);
        assertThat(runLogStatus("fault-crash", date, "daily")).isEqualTo("COMPLETED");
    }
}
