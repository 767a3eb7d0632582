package dev.interlock.jobs;

import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.trigger.EmrTrigger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import software.amazon.awssdk.services.emr.EmrClient;
import software.amazon.awssdk.services.emr.model.ActionOnFailure;
import software.amazon.awssdk.services.emr.model.HadoopJarStepConfig;
import software.amazon.awssdk.services.emr.model.StepConfig;
import software.amazon.awssdk.services.emr.model.StepState;
import software.amazon.awssdk.services.emr.model.StepStatus;

/** Adds a JAR step to a running EMR cluster ({@code AddJobFlowSteps}) and follows it ({@code DescribeStep}). */
final class EmrJob {

    private final Supplier<EmrClient> emr;

    EmrJob(Supplier<EmrClient> emr) {
        this.emr = emr;
    }

    TriggerResult start(EmrTrigger trigger, TriggerRequest request) throws JobFailure {
        String clusterId = Metadata.requireField(trigger.clusterId(), "emr", "clusterId");
        String stepName = stepName(Metadata.requireField(trigger.stepName(), "emr", "stepName"), request.runId());
        EarlierStart earlier = null;
        if (request.resumed() && request.runId() != null && !request.runId().isBlank()) {
            String how = "emr ListSteps of " + clusterId + " by step name '" + stepName + "'";
            String started = startedBefore(clusterId, stepName);
            if (started != null) {
                return TriggerResult.running(Map.of(Metadata.EMR_CLUSTER_ID, clusterId, Metadata.EMR_STEP_ID, started))
                        .withEarlierStart(EarlierStart.found(how));
            }
            earlier = EarlierStart.none(how);
        }
        String jar = Metadata.requireField(trigger.jar(), "emr", "jar");
        List<String> args = new ArrayList<>();
        trigger.arguments().forEach((k, v) -> args.add(k + "=" + v));
        StepConfig step = StepConfig.builder()
                .name(stepName)
                // The cluster serves other work: a failed step must not terminate it.
                .actionOnFailure(ActionOnFailure.CONTINUE)
                .hadoopJarStep(HadoopJarStepConfig.builder().jar(jar).args(args).build())
                .build();
        List<String> stepIds = JobFailure.aws(
                "emr AddJobFlowSteps",
                () -> emr.get()
                        .addJobFlowSteps(r -> r.jobFlowId(clusterId).steps(step))
                        .stepIds());
        if (stepIds == null || stepIds.isEmpty()) {
            throw new JobFailure("emr AddJobFlowSteps returned no step id", FailureCategory.TRANSIENT, null);
        }
        return TriggerResult.running(
                        Map.of(Metadata.EMR_CLUSTER_ID, clusterId, Metadata.EMR_STEP_ID, stepIds.getFirst()))
                .withEarlierStart(earlier);
    }

    /**
     * The step's name with the Interlock run that adds it: EMR has no idempotency token for steps, so a resumed trigger
     * finds the step it may have added by this name ({@code ListSteps}). At most 256 characters, as EMR allows.
     */
    static String stepName(String configured, String runId) {
        if (runId == null || runId.isBlank()) {
            return configured;
        }
        String suffix = " [interlock run " + runId + "]";
        return configured.length() + suffix.length() <= MAX_STEP_NAME
                ? configured + suffix
                : configured.substring(0, Math.max(0, MAX_STEP_NAME - suffix.length())) + suffix;
    }

    private static final int MAX_STEP_NAME = 256;

    /** The id of the cluster's newest step named {@code stepName}; null: none (the first page of ListSteps). */
    private String startedBefore(String clusterId, String stepName) throws JobFailure {
        var steps = JobFailure.aws("emr ListSteps", () -> emr.get().listSteps(r -> r.clusterId(clusterId)))
                .steps();
        for (var step : steps) {
            if (stepName.equals(step.name())) {
                return step.id();
            }
        }
        return null;
    }

    RunCheck check(RunCheckRequest request) throws JobFailure {
        List<String> ids = Metadata.require(request.metadata(), "emr", Metadata.EMR_CLUSTER_ID, Metadata.EMR_STEP_ID);
        StepStatus status = JobFailure.aws(
                "emr DescribeStep",
                () -> emr.get()
                        .describeStep(r -> r.clusterId(ids.get(0)).stepId(ids.get(1)))
                        .step()
                        .status());
        StepState state = status == null ? null : status.state();
        String message = state == null ? "no state" : status.stateAsString();
        if (status != null
                && status.failureDetails() != null
                && status.failureDetails().message() != null) {
            message += ": " + status.failureDetails().message();
        } else if (status != null
                && status.stateChangeReason() != null
                && status.stateChangeReason().message() != null) {
            message += ": " + status.stateChangeReason().message();
        }
        if (state == StepState.COMPLETED && status.failureDetails() != null && hasDetail(status.failureDetails())) {
            // EMR itself says what failed in a step it calls COMPLETED: the step lied about its success.
            return RunCheck.failed(
                    "emr step " + ids.get(1) + " ended COMPLETED with failure details: " + message,
                    FailureCategory.FALSE_SUCCESS);
        }
        return map(state, message);
    }

    /** Cancels the step ({@code CancelSteps}); a running step goes CANCEL_PENDING, then CANCELLED. */
    JobCanceller.Cancellation cancel(RunCheckRequest request) throws JobFailure {
        List<String> ids = Metadata.require(request.metadata(), "emr", Metadata.EMR_CLUSTER_ID, Metadata.EMR_STEP_ID);
        var infos = JobFailure.aws(
                "emr CancelSteps",
                () -> emr.get()
                        .cancelSteps(r -> r.clusterId(ids.get(0)).stepIds(ids.get(1)))
                        .cancelStepsInfoList());
        var info = infos == null || infos.isEmpty() ? null : infos.getFirst();
        if (info != null && "FAILED".equals(info.statusAsString())) {
            return JobCanceller.Cancellation.refused(
                    "emr CancelSteps refused step " + ids.get(1) + ": " + info.reason());
        }
        return JobCanceller.Cancellation.requested("emr step " + ids.get(1) + " cancel requested");
    }

    private static boolean hasDetail(software.amazon.awssdk.services.emr.model.FailureDetails details) {
        return (details.message() != null && !details.message().isBlank())
                || (details.reason() != null && !details.reason().isBlank())
                || (details.logFile() != null && !details.logFile().isBlank());
    }

    static RunCheck map(StepState state, String message) {
        if (state == null) {
            return RunCheck.running(message);
        }
        return switch (state) {
            case COMPLETED -> RunCheck.succeeded(message);
            // INTERRUPTED: the cluster lost the step (node loss, termination); another attempt may well pass.
            case FAILED, INTERRUPTED -> RunCheck.failed(message, FailureCategory.TRANSIENT);
            case CANCELLED -> RunCheck.stopped(state.toString(), message);
            // CANCEL_PENDING is not terminal yet; the next poll sees CANCELLED.
            case PENDING, CANCEL_PENDING, RUNNING, UNKNOWN_TO_SDK_VERSION -> RunCheck.running(message);
        };
    }
}
