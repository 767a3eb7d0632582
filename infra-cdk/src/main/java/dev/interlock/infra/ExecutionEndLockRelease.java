package dev.interlock.infra;

import dev.interlock.model.runtime.ExecutionEndRule;
import java.util.List;
import software.amazon.awscdk.services.events.EventPattern;
import software.amazon.awscdk.services.events.Rule;
import software.amazon.awscdk.services.lambda.Alias;
import software.amazon.awscdk.services.sqs.IQueue;
import software.amazon.awscdk.services.stepfunctions.IStateMachine;
import software.constructs.Construct;

/**
 * Executions of Interlock's own state machine that end ABORTED, TIMED_OUT or FAILED → orchestrator
 * ({@link dev.interlock.model.contract.OrchestratorAction#EXECUTION_ENDED}), which releases the lock such an execution
 * may still hold. Without it, an aborted execution's day waits for the lock's TTL or an operator's unlock.
 */
final class ExecutionEndLockRelease {

    ExecutionEndLockRelease(Construct scope, IStateMachine stateMachine, Alias orchestrator, IQueue deadLetters) {
        Rule.Builder.create(scope, ExecutionEndRule.RULE_ID)
                .description("Interlock: executions that ended without releasing their lock → orchestrator")
                .eventPattern(EventPattern.builder()
                        .source(List.of(ExecutionEndRule.SOURCE))
                        .detailType(List.of(ExecutionEndRule.DETAIL_TYPE))
                        .detail(ExecutionEndRule.detailPattern(stateMachine.getStateMachineArn()))
                        .build())
                .targets(List.of(OrchestratorEventTarget.of(orchestrator, ExecutionEndRule.TARGET, deadLetters)))
                .build();
    }
}
