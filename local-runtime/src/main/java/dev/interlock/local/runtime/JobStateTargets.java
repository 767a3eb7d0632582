package dev.interlock.local.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.local.aws.AwsJson;
import dev.interlock.local.events.LocalEventBus;
import dev.interlock.model.runtime.JobStateRule;

import java.util.List;

/**
 * The job-state rules of the stack on the local bus: one per {@link JobStateRule}, matching the terminal states of
 * every job (locally every job is a fake of this runtime), rendering the event as the stack's input transformer does.
 */
final class JobStateTargets {

    private JobStateTargets() {
    }

    /**
     * Where the rules deliver until the orchestrator answers {@code jobStateChange}: the input is recorded (the bus
     * keeps it among its deliveries) and completion keeps following the poll loop.
     */
    static final class Recorder implements LocalEventBus.Target {
        @Override
        public String name() {
            return "orchestrator " + JobStateRule.TARGET_ACTION + " (recorded)";
        }

        @Override
        public void deliver(JsonNode input) {
            // Recorded by the bus as a delivery; nothing else to do yet.
        }
    }

    static void addRules(LocalEventBus bus, LocalEventBus.Target target) {
        for (JobStateRule rule : JobStateRule.values()) {
            JsonNode pattern = AwsJson.JSON.valueToTree(java.util.Map.of(
                    "source", List.of(rule.source()),
                    "detail-type", List.of(rule.detailType()),
                    "detail", rule.detailPattern(List.of())));
            bus.addRule(new LocalEventBus.Rule(rule.ruleId(), pattern, target, event -> AwsJson.JSON.valueToTree(
                    JobStateRule.targetInput(event.path("source").asText(), event.path("detail-type").asText(),
                            event.path("time").asText(), event.path("detail")))));
        }
    }
}
