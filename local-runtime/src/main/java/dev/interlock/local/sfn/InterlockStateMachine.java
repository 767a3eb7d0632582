package dev.interlock.local.sfn;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.local.alerts.AlertSink;
import dev.interlock.local.aws.FunctionOutcome;
import dev.interlock.local.aws.FunctionRegistry;
import dev.interlock.local.aws.LocalArns;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.runtime.InterlockFunction;
import dev.interlock.statemachine.AslDefinition;
import dev.interlock.statemachine.engine.EngineClock;
import dev.interlock.statemachine.engine.ExecutionStore;
import dev.interlock.statemachine.engine.StateMachine;
import dev.interlock.statemachine.engine.TaskFailedException;
import dev.interlock.statemachine.engine.TaskResource;
import dev.interlock.statemachine.engine.TaskResources;
import dev.interlock.statemachine.model.StateMachineDefinition;
import java.io.IOException;
import java.util.Map;
import java.util.UUID;

/**
 * The pipeline state machine as the local runtime runs it: the SAME ASL file as the CDK stack deploys, its
 * placeholders filled with local ARNs, its Lambda tasks calling the in-process functions and its SNS task
 * delivering to the alert sink.
 */
public final class InterlockStateMachine {

    public static final String NAME = "interlock-pipeline";
    public static final String ALERT_TOPIC = "interlock-alerts";
    private static final ObjectMapper JSON = InterlockJson.json();
    private static final long FUNCTION_TIMEOUT_MILLIS = 900_000;

    private InterlockStateMachine() {}

    /** The local name of a function (its module name), as registered in the {@link FunctionRegistry}. */
    public static String functionName(InterlockFunction f) {
        return f.moduleName();
    }

    /** ASL placeholder → local ARN. */
    public static Map<String, String> substitutions() {
        return Map.of(
                "OrchestratorFunctionArn", LocalArns.function(functionName(InterlockFunction.ORCHESTRATOR)),
                "EvaluatorFunctionArn", LocalArns.function(functionName(InterlockFunction.EVALUATOR)),
                "TriggerFunctionArn", LocalArns.function(functionName(InterlockFunction.TRIGGER)),
                "RunCheckerFunctionArn", LocalArns.function(functionName(InterlockFunction.RUN_CHECKER)),
                "AlertTopicArn", LocalArns.topic(ALERT_TOPIC));
    }

    /** The machine with its executions in memory. */
    public static StateMachine build(FunctionRegistry functions, AlertSink alerts, EngineClock clock) {
        return build(functions, alerts, clock, ExecutionStore.inMemory());
    }

    /** The machine keeping its executions in {@code store} (a data directory's executions survive a restart). */
    public static StateMachine build(
            FunctionRegistry functions, AlertSink alerts, EngineClock clock, ExecutionStore store) {
        return build(functions, alerts, clock, store, ended -> {});
    }

    /** The machine, with {@code onEnded} told of every execution's end (what AWS publishes as a status change). */
    public static StateMachine build(
            FunctionRegistry functions,
            AlertSink alerts,
            EngineClock clock,
            ExecutionStore store,
            java.util.function.Consumer<dev.interlock.statemachine.engine.ExecutionDescription> onEnded) {
        TaskResources.Builder resources = TaskResources.builder();
        for (InterlockFunction f : new InterlockFunction[] {
            InterlockFunction.ORCHESTRATOR,
            InterlockFunction.EVALUATOR,
            InterlockFunction.TRIGGER,
            InterlockFunction.RUN_CHECKER
        }) {
            resources.function(LocalArns.function(functionName(f)), invoker(functions, functionName(f)));
        }
        resources.resource(TaskResources.SNS_PUBLISH, invocation -> {
            JsonNode p = invocation.parameters();
            JsonNode message = p.path("Message");
            alerts.receive(
                    p.path("TopicArn").asText(""),
                    p.path("Subject").asText(""),
                    message.isTextual() ? message.asText() : message.toString());
            ObjectNode out = JSON.createObjectNode();
            out.put("MessageId", UUID.randomUUID().toString());
            return out;
        });
        String asl = AslDefinition.substitute(substitutions());
        return StateMachine.builder(NAME, StateMachineDefinition.parse(asl))
                .source(asl)
                .clock(clock)
                .resources(resources.build())
                .region(LocalArns.REGION)
                .accountId(LocalArns.ACCOUNT)
                .store(store)
                .onEnded(onEnded)
                .build();
    }

    /** Runs a function in process; a function error becomes the task error Step Functions would see. */
    static TaskResource invoker(FunctionRegistry functions, String name) {
        return invocation -> {
            byte[] payload;
            try {
                payload = JSON.writeValueAsBytes(invocation.payload());
            } catch (IOException e) {
                throw new TaskFailedException("States.Runtime", "cannot serialise task input: " + e.getMessage());
            }
            FunctionOutcome outcome;
            try {
                outcome = FunctionOutcome.invoke(functions, name, payload, FUNCTION_TIMEOUT_MILLIS);
            } catch (FunctionOutcome.FunctionNotFoundException e) {
                throw new TaskFailedException("Lambda.ResourceNotFoundException", e.getMessage());
            }
            if (outcome.failed()) {
                throw new TaskFailedException(
                        outcome.errorType(), new String(outcome.errorBody(), java.nio.charset.StandardCharsets.UTF_8));
            }
            try {
                return JSON.readTree(outcome.payload());
            } catch (IOException e) {
                throw new TaskFailedException("Lambda.Unknown", "function " + name + " returned invalid JSON");
            }
        };
    }
}
