package dev.interlock.local.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.local.aws.AwsJson;
import dev.interlock.local.aws.FunctionOutcome;
import dev.interlock.local.aws.FunctionRegistry;
import dev.interlock.local.events.LocalEventBus;
import dev.interlock.local.sfn.InterlockStateMachine;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.runtime.ExecutionEndRule;
import dev.interlock.model.runtime.InterlockFunction;
import dev.interlock.model.trigger.JobStateRule;
import dev.interlock.statemachine.engine.ExecutionDescription;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The stack's event rules on the local bus, with the targets and input transformers the stack gives them: one job-state
 * rule per {@link JobStateRule} (matching the terminal states of every job: locally every job is a fake of this
 * runtime) → the orchestrator's {@link OrchestratorAction#JOB_STATE_CHANGE}, and the {@link ExecutionEndRule} on
 * Interlock's own state machine → {@link OrchestratorAction#EXECUTION_ENDED}, fed by {@link #publishEnd}, which puts the
 * status change Step Functions publishes on AWS.
 */
final class EventRules {

    private EventRules() {}

    /**
     * What the stack's rule targets do: invoke the orchestrator with the rendered event. A failed invocation throws, so
     * the bus delivers again, as EventBridge retries a rule target.
     */
    static final class Orchestrator implements LocalEventBus.Target {
        private final FunctionRegistry functions;
        private final OrchestratorAction action;

        Orchestrator(FunctionRegistry functions, OrchestratorAction action) {
            this.functions = functions;
            this.action = action;
        }

        @Override
        public String name() {
            return "orchestrator " + action.wireName();
        }

        @Override
        public void deliver(JsonNode input) {
            FunctionOutcome outcome = FunctionOutcome.invoke(
                    functions,
                    InterlockStateMachine.functionName(InterlockFunction.ORCHESTRATOR),
                    input.toString().getBytes(StandardCharsets.UTF_8),
                    60_000);
            if (outcome.failed()) {
                throw new IllegalStateException(
                        action.wireName() + " failed: " + outcome.errorType() + ": " + outcome.errorMessage());
            }
        }
    }

    /** Every rule of the stack that reacts to events, on {@code bus}; {@code interlockArn} is our own state machine. */
    static void addRules(LocalEventBus bus, FunctionRegistry functions, String interlockArn) {
        LocalEventBus.Target jobStateChange = new Orchestrator(functions, JobStateRule.TARGET);
        for (JobStateRule rule : JobStateRule.values()) {
            Map<String, Object> detail = new LinkedHashMap<>(rule.detailPattern(List.of()));
            if (rule == JobStateRule.STEP_FUNCTIONS) {
                // On AWS the rule lists the configured state machines; here it takes every one but Interlock's own,
                // whose ends are the execution-end rule's.
                detail.put(rule.resourceField(), List.of(Map.of("anything-but", List.of(interlockArn))));
            }
            bus.addRule(new LocalEventBus.Rule(
                    rule.ruleId(),
                    pattern(rule.source(), rule.detailType(), detail),
                    jobStateChange,
                    event -> input(JobStateRule.TARGET, event)));
        }
        bus.addRule(new LocalEventBus.Rule(
                ExecutionEndRule.RULE_ID,
                pattern(
                        ExecutionEndRule.SOURCE,
                        ExecutionEndRule.DETAIL_TYPE,
                        ExecutionEndRule.detailPattern(interlockArn)),
                new Orchestrator(functions, ExecutionEndRule.TARGET),
                event -> input(ExecutionEndRule.TARGET, event)));
    }

    /**
     * Puts the {@code Step Functions Execution Status Change} event of an ended execution of Interlock's machine, with
     * the detail AWS gives it (dates in epoch milliseconds, input and output as JSON text).
     */
    static void publishEnd(LocalEventBus bus, ExecutionDescription ended) {
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("executionArn", ended.executionArn());
        detail.put("stateMachineArn", ended.stateMachineArn());
        detail.put("name", ended.name());
        detail.put("status", ended.status().name());
        detail.put("startDate", ended.startDate().toEpochMilli());
        detail.put(
                "stopDate", ended.stopDate() == null ? null : ended.stopDate().toEpochMilli());
        detail.put("input", ended.input());
        detail.put("inputDetails", Map.of("included", true));
        detail.put("output", ended.output());
        detail.put("outputDetails", Map.of("included", true));
        detail.put("error", ended.error());
        detail.put("cause", ended.cause());
        bus.put(
                ExecutionEndRule.SOURCE,
                ExecutionEndRule.DETAIL_TYPE,
                AwsJson.JSON.valueToTree(detail),
                List.of(ended.executionArn()),
                ended.stopDate() == null ? Instant.now() : ended.stopDate());
    }

    /** What the stack's input transformer makes of a matched event for {@code action}. */
    private static JsonNode input(OrchestratorAction action, JsonNode event) {
        return AwsJson.JSON.valueToTree(action.eventInvocation(
                event.path("source").asText(),
                event.path("detail-type").asText(),
                event.path("time").asText(),
                event.path("detail")));
    }

    private static JsonNode pattern(String source, String detailType, Map<String, Object> detail) {
        return AwsJson.JSON.valueToTree(
                Map.of("source", List.of(source), "detail-type", List.of(detailType), "detail", detail));
    }
}
