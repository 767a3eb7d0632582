package dev.interlock.model.trigger;

import dev.interlock.model.contract.OrchestratorAction;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The EventBridge rules that follow AWS jobs to their end (infra-cdk/README.md): which service events they match (AWS's own
 * {@code source} and {@code detail-type}, the terminal values of the state field) and what their target receives.
 * Named once for the CDK stack, which scopes each rule to the configured jobs, and for the local runtime, whose job
 * fakes publish these events to its local EventBridge.
 */
public enum JobStateRule {
    GLUE(
            "GlueJobStateChange",
            "aws.glue",
            "Glue Job State Change",
            "state",
            List.of("SUCCEEDED", "FAILED", "TIMEOUT", "STOPPED", "ERROR"),
            "jobName",
            TriggerType.GLUE,
            "jobRunId"),
    EMR_STEP(
            "EmrStepStateChange",
            "aws.emr",
            "EMR Step Status Change",
            "state",
            List.of("COMPLETED", "FAILED", "CANCELLED", "INTERRUPTED"),
            "clusterId",
            TriggerType.EMR,
            "stepId"),
    EMR_SERVERLESS(
            "EmrServerlessJobStateChange",
            "aws.emr-serverless",
            "EMR Serverless Job Run State Change",
            "state",
            List.of("SUCCESS", "FAILED", "CANCELLED"),
            "applicationId",
            TriggerType.EMR_SERVERLESS,
            "jobRunId"),
    STEP_FUNCTIONS(
            "StepFunctionsExecutionStateChange",
            "aws.states",
            "Step Functions Execution Status Change",
            "status",
            List.of("SUCCEEDED", "FAILED", "TIMED_OUT", "ABORTED"),
            "stateMachineArn",
            TriggerType.STEP_FUNCTION,
            "executionArn");

    /**
     * The action every job-state rule invokes, with {@link OrchestratorAction#eventInvocation} as its input (the stack
     * builds the same shape with an input transformer).
     */
    public static final OrchestratorAction TARGET = OrchestratorAction.JOB_STATE_CHANGE;

    private final String ruleId;
    private final String source;
    private final String detailType;
    private final String stateField;
    private final List<String> terminalStates;
    private final String resourceField;
    private final TriggerType triggerType;
    private final String jobIdField;

    JobStateRule(
            String ruleId,
            String source,
            String detailType,
            String stateField,
            List<String> terminalStates,
            String resourceField,
            TriggerType triggerType,
            String jobIdField) {
        this.triggerType = triggerType;
        this.jobIdField = jobIdField;
        this.ruleId = ruleId;
        this.source = source;
        this.detailType = detailType;
        this.stateField = stateField;
        this.terminalStates = terminalStates;
        this.resourceField = resourceField;
    }

    /** The rule's construct id in the stack and its name on the local bus. */
    public String ruleId() {
        return ruleId;
    }

    /** The event's {@code source}, e.g. {@code aws.glue}. */
    public String source() {
        return source;
    }

    /** The event's {@code detail-type}, e.g. {@code Glue Job State Change}. */
    public String detailType() {
        return detailType;
    }

    /** The {@code detail} field holding the job's state ({@code status} for Step Functions). */
    public String stateField() {
        return stateField;
    }

    /** The states that end a job: the only ones the rule matches. */
    public List<String> terminalStates() {
        return terminalStates;
    }

    /** The {@code detail} field naming the job's resource, by which a deployment scopes the rule. */
    public String resourceField() {
        return resourceField;
    }

    /** The trigger type whose jobs this rule follows; its runs complete by callback instead of polling. */
    public TriggerType triggerType() {
        return triggerType;
    }

    /**
     * The {@code detail} field holding the job's own id, the one the trigger records in the run's metadata
     * ({@link dev.interlock.model.run.JobMetadata#jobId}): Glue's {@code jobRunId}, EMR's {@code stepId}, EMR
     * Serverless' {@code jobRunId}, Step Functions' {@code executionArn}.
     */
    public String jobIdField() {
        return jobIdField;
    }

    /** The rule that follows jobs of {@code type}, if its jobs complete by callback. */
    public static Optional<JobStateRule> forTriggerType(TriggerType type) {
        for (JobStateRule rule : values()) {
            if (rule.triggerType == type) {
                return Optional.of(rule);
            }
        }
        return Optional.empty();
    }

    /** The rule whose events carry this {@code source} and {@code detail-type}. */
    public static Optional<JobStateRule> forEvent(String source, String detailType) {
        for (JobStateRule rule : values()) {
            if (rule.source.equals(source) && rule.detailType.equals(detailType)) {
                return Optional.of(rule);
            }
        }
        return Optional.empty();
    }

    /**
     * The rule's {@code detail} pattern: terminal states, and only the given resources (job names, cluster ids …)
     * unless {@code resources} is empty (the local runtime, where every job is a fake of its own).
     */
    public Map<String, Object> detailPattern(List<String> resources) {
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put(stateField, terminalStates);
        if (!resources.isEmpty()) {
            detail.put(resourceField, resources);
        }
        return detail;
    }
}
