package dev.interlock.model.runtime;

import dev.interlock.model.contract.OrchestratorAction;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The EventBridge rule on Interlock's own state machine: an execution that ends ABORTED (an operator's stop), TIMED_OUT
 * or FAILED may still hold its evaluation lock — no state of the machine runs after an abort or a timeout, and a
 * failure outside every Catch skips the release too. The rule hands such ends to the orchestrator's
 * {@link OrchestratorAction#EXECUTION_ENDED}, which releases the lock only if that execution still holds it. Named once
 * for the CDK stack and for the local runtime, whose Step Functions service publishes the same events.
 */
public final class ExecutionEndRule {

    /** The rule's construct id in the stack and its name on the local bus. */
    public static final String RULE_ID = "ExecutionEndLockRelease";

    /**
     * The action the rule invokes, with {@link OrchestratorAction#eventInvocation} as its input (the stack builds the
     * same shape with an input transformer).
     */
    public static final OrchestratorAction TARGET = OrchestratorAction.EXECUTION_ENDED;

    public static final String SOURCE = "aws.states";
    public static final String DETAIL_TYPE = "Step Functions Execution Status Change";
    /** The ends after which no state of the machine released the lock (SUCCEEDED always passes a release state). */
    public static final List<String> STATUSES = List.of("ABORTED", "TIMED_OUT", "FAILED");

    private ExecutionEndRule() {}

    /** The rule's {@code detail} pattern: those ends, of this state machine only. */
    public static Map<String, Object> detailPattern(String stateMachineArn) {
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("stateMachineArn", List.of(stateMachineArn));
        detail.put("status", STATUSES);
        return detail;
    }
}
