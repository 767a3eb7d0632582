package dev.interlock.infra;

import dev.interlock.model.contract.OrchestratorAction;
import software.amazon.awscdk.services.events.EventField;
import software.amazon.awscdk.services.events.RuleTargetInput;
import software.amazon.awscdk.services.events.targets.LambdaFunction;
import software.amazon.awscdk.services.lambda.Alias;
import software.amazon.awscdk.services.sqs.IQueue;

/** The target of a rule that hands matched events to an orchestrator action, in the request shape the action reads. */
final class OrchestratorEventTarget {

    private OrchestratorEventTarget() {}

    /**
     * The orchestrator alias invoked with {@code {"action": action, "payload": {source, detailType, time, detail}}}
     * (an input transformer over the event's fields), retried three times as a failed delivery and then put in
     * {@code deadLetters}.
     */
    static LambdaFunction of(Alias orchestrator, OrchestratorAction action, IQueue deadLetters) {
        return LambdaFunction.Builder.create(orchestrator)
                .event(RuleTargetInput.fromObject(action.eventInvocation(
                        EventField.getSource(),
                        EventField.getDetailType(),
                        EventField.getTime(),
                        EventField.fromPath("$.detail"))))
                .retryAttempts(3)
                .deadLetterQueue(deadLetters)
                .build();
    }
}
