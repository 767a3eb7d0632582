package dev.interlock.local.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.local.aws.AwsJson;
import dev.interlock.local.aws.FunctionOutcome;
import dev.interlock.local.aws.FunctionRegistry;
import dev.interlock.local.events.LocalEventBus;
import dev.interlock.local.sfn.InterlockStateMachine;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.runtime.InterlockFunction;
import dev.interlock.model.runtime.JobStateRule;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The job-state rules of the stack on the local bus: one per {@link JobStateRule}, matching the terminal states of
 * every job (locally every job is a fake of this runtime), rendering the event as the stack's input transformer does
 * and invoking the orchestrator's {@link OrchestratorAction#JOB_STATE_CHANGE} with it.
 */
final class JobStateTargets {

    private JobStateTargets() {}

    /**
     * What the stack's rule target does: invoke the orchestrator with the rendered event ({@link OrchestratorAction#JOB_STATE_CHANGE}). A
     * failed invocation throws, so the bus delivers again, as EventBridge retries a rule target.
     */
    static final class Orchestrator implements LocalEventBus.Target {
        private final FunctionRegistry functions;

        Orchestrator(FunctionRegistry functions) {
            this.functions = functions;
        }

        @Override
        public String name() {
            return "orchestrator " + OrchestratorAction.JOB_STATE_CHANGE.wireName();
        }

        @Override
        public void deliver(JsonNode input) {
            FunctionOutcome outcome = FunctionOutcome.invoke(
                    functions,
                    InterlockStateMachine.functionName(InterlockFunction.ORCHESTRATOR),
                    input.toString().getBytes(StandardCharsets.UTF_8),
                    60_000);
            if (outcome.failed()) {
                throw new IllegalStateException(OrchestratorAction.JOB_STATE_CHANGE.wireName() + " failed: "
                        + outcome.errorType() + ": " + outcome.errorMessage());
            }
        }
    }

    static void addRules(LocalEventBus bus, LocalEventBus.Target target) {
        for (JobStateRule rule : JobStateRule.values()) {
            JsonNode pattern = AwsJson.JSON.valueToTree(java.util.Map.of(
                    "source", List.of(rule.source()),
                    "detail-type", List.of(rule.detailType()),
                    "detail", rule.detailPattern(List.of())));
            bus.addRule(new LocalEventBus.Rule(
                    rule.ruleId(),
                    pattern,
                    target,
                    event -> AwsJson.JSON.valueToTree(JobStateRule.targetInput(
                            event.path("source").asText(),
                            event.path("detail-type").asText(),
                            event.path("time").asText(),
                            event.path("detail")))));
        }
    }
}
