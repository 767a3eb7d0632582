package dev.interlock.jobs;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.trigger.StepFunctionTrigger;
import java.util.Map;
import java.util.function.Supplier;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/** Starts Step Functions executions ({@code StartExecution}) and follows them ({@code DescribeExecution}). */
final class StepFunctionJob {

    private static final int MAX_EXECUTION_NAME = 80;

    private final Supplier<SfnClient> sfn;

    StepFunctionJob(Supplier<SfnClient> sfn) {
        this.sfn = sfn;
    }

    TriggerResult start(StepFunctionTrigger trigger, TriggerRequest request) throws JobFailure {
        String arn = Metadata.requireField(trigger.stateMachineArn(), "step-function", "stateMachineArn");
        String input;
        try {
            input = InterlockJson.json().writeValueAsString(trigger.arguments());
        } catch (JsonProcessingException e) {
            throw new JobFailure("step-function arguments cannot be written as JSON", FailureCategory.PERMANENT, e);
        }
        String name = executionName(request.runId());
        EarlierStart earlier = null;
        if (request.resumed() && name != null) {
            String how = "step-function DescribeExecution of execution " + name;
            // An earlier claim may have started it; an execution that has ended meanwhile answers
            // ExecutionAlreadyExists to a second StartExecution, so it is looked up by its name first.
            String existing = arn.replace(":stateMachine:", ":execution:") + ":" + name;
            boolean started = JobFailure.aws("step-function DescribeExecution", () -> {
                try {
                    sfn.get().describeExecution(r -> r.executionArn(existing));
                    return true;
                } catch (software.amazon.awssdk.services.sfn.model.ExecutionDoesNotExistException notStarted) {
                    return false;
                }
            });
            if (started) {
                return TriggerResult.running(Map.of(Metadata.SFN_EXECUTION_ARN, existing))
                        .withEarlierStart(EarlierStart.found(how));
            }
            earlier = EarlierStart.none(how);
        }
        String executionArn = JobFailure.aws(
                "step-function StartExecution",
                () -> sfn.get()
                        .startExecution(r -> {
                            r.stateMachineArn(arn).input(input);
                            // Named after the run: StartExecution with the same name and input returns the running
                            // execution
                            // instead of starting a second one when a trigger is retried after a lost answer.
                            if (name != null) {
                                r.name(name);
                            }
                        })
                        .executionArn());
        return TriggerResult.running(Map.of(Metadata.SFN_EXECUTION_ARN, executionArn))
                .withEarlierStart(earlier);
    }

    RunCheck check(RunCheckRequest request) throws JobFailure {
        String executionArn = Metadata.require(request.metadata(), "step-function", Metadata.SFN_EXECUTION_ARN)
                .getFirst();
        DescribeExecutionResponse execution = JobFailure.aws(
                "step-function DescribeExecution",
                () -> sfn.get().describeExecution(r -> r.executionArn(executionArn)));
        ExecutionStatus status = execution.status();
        String message = status == null ? "no status" : execution.statusAsString();
        if (execution.error() != null) {
            message += ": " + execution.error() + (execution.cause() == null ? "" : " " + execution.cause());
        }
        return map(status, message);
    }

    /** Stops the execution ({@code StopExecution}); it ends ABORTED. */
    JobCanceller.Cancellation cancel(RunCheckRequest request) throws JobFailure {
        String executionArn = Metadata.require(request.metadata(), "step-function", Metadata.SFN_EXECUTION_ARN)
                .getFirst();
        JobFailure.aws(
                "step-function StopExecution",
                () -> sfn.get()
                        .stopExecution(r -> r.executionArn(executionArn)
                                .error("Interlock.MaxJobDuration")
                                .cause("stopped by Interlock: ran longer than the pipeline's maxJobDurationSeconds")));
        return JobCanceller.Cancellation.requested("step-function execution stop requested");
    }

    static RunCheck map(ExecutionStatus status, String message) {
        if (status == null) {
            return RunCheck.running(message);
        }
        return switch (status) {
            case SUCCEEDED -> RunCheck.succeeded(message);
            case FAILED -> RunCheck.failed(message, FailureCategory.TRANSIENT);
            case TIMED_OUT -> RunCheck.failed(message, FailureCategory.TIMEOUT);
            case ABORTED -> RunCheck.stopped(status.toString(), message);
            // PENDING_REDRIVE: a redrive was accepted and the execution is about to run again.
            case RUNNING, PENDING_REDRIVE, UNKNOWN_TO_SDK_VERSION -> RunCheck.running(message);
        };
    }

    /** {@code interlock-<runId>} with characters Step Functions rejects replaced, at most 80 characters. */
    static String executionName(String runId) {
        if (runId == null || runId.isBlank()) {
            return null;
        }
        String name = ("interlock-" + runId).replaceAll("[^A-Za-z0-9_-]", "_");
        return name.length() > MAX_EXECUTION_NAME ? name.substring(0, MAX_EXECUTION_NAME) : name;
    }
}
