package dev.interlock.jobs;

import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.trigger.EmrServerlessTrigger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import software.amazon.awssdk.services.emrserverless.EmrServerlessClient;
import software.amazon.awssdk.services.emrserverless.model.JobDriver;
import software.amazon.awssdk.services.emrserverless.model.JobRun;
import software.amazon.awssdk.services.emrserverless.model.JobRunState;
import software.amazon.awssdk.services.emrserverless.model.SparkSubmit;

/**
 * Starts EMR Serverless job runs with an execution role and a Spark job driver ({@code StartJobRun}) and follows
 * them ({@code GetJobRun}). The Go original sent neither role nor driver, which the real API rejects.
 */
final class EmrServerlessJob {

    /** The API's limit on {@code clientToken}. */
    private static final int MAX_CLIENT_TOKEN = 64;

    private final Supplier<EmrServerlessClient> emrServerless;

    EmrServerlessJob(Supplier<EmrServerlessClient> emrServerless) {
        this.emrServerless = emrServerless;
    }

    TriggerResult start(EmrServerlessTrigger trigger, TriggerRequest request) throws JobFailure {
        String applicationId = Metadata.requireField(trigger.applicationId(), "emr-serverless", "applicationId");
        String roleArn = Metadata.requireField(trigger.executionRoleArn(), "emr-serverless", "executionRoleArn");
        String entryPoint = Metadata.requireField(trigger.entryPoint(), "emr-serverless", "entryPoint");
        // Templated arguments follow the entry point's own arguments as k=v, the way EMR steps receive them.
        List<String> arguments = new ArrayList<>(trigger.entryPointArguments());
        trigger.arguments().forEach((k, v) -> arguments.add(k + "=" + v));
        SparkSubmit.Builder spark = SparkSubmit.builder().entryPoint(entryPoint).entryPointArguments(arguments);
        if (trigger.sparkSubmitParameters() != null
                && !trigger.sparkSubmitParameters().isBlank()) {
            spark.sparkSubmitParameters(trigger.sparkSubmitParameters());
        }
        String jobRunId = JobFailure.aws(
                "emr-serverless StartJobRun",
                () -> emrServerless
                        .get()
                        .startJobRun(r -> {
                            r.applicationId(applicationId)
                                    .executionRoleArn(roleArn)
                                    .jobDriver(JobDriver.builder()
                                            .sparkSubmit(spark.build())
                                            .build());
                            if (trigger.jobName() != null && !trigger.jobName().isBlank()) {
                                r.name(trigger.jobName());
                            }
                            // The run id as idempotency token: a trigger retried after a lost answer gets the same job
                            // run back.
                            if (request.runId() != null && !request.runId().isBlank()) {
                                r.clientToken(clientToken(request));
                            }
                        })
                        .jobRunId());
        TriggerResult result = TriggerResult.running(
                Map.of(Metadata.EMR_SL_APPLICATION_ID, applicationId, Metadata.EMR_SL_JOB_RUN_ID, jobRunId));
        return request.resumed() && request.runId() != null && !request.runId().isBlank()
                ? result.withEarlierStart(
                        EarlierStart.byToken("emr-serverless StartJobRun with clientToken " + clientToken(request)))
                : result;
    }

    /** The run id as the API's {@code clientToken}: at most {@value #MAX_CLIENT_TOKEN} characters. */
    private static String clientToken(TriggerRequest request) {
        return request.runId().length() > MAX_CLIENT_TOKEN
                ? request.runId().substring(0, MAX_CLIENT_TOKEN)
                : request.runId();
    }

    RunCheck check(RunCheckRequest request) throws JobFailure {
        List<String> ids = Metadata.require(
                request.metadata(), "emr-serverless", Metadata.EMR_SL_APPLICATION_ID, Metadata.EMR_SL_JOB_RUN_ID);
        JobRun run = JobFailure.aws(
                "emr-serverless GetJobRun",
                () -> emrServerless
                        .get()
                        .getJobRun(r -> r.applicationId(ids.get(0)).jobRunId(ids.get(1)))
                        .jobRun());
        JobRunState state = run.state();
        String message = state == null ? "no state" : run.stateAsString();
        if (run.stateDetails() != null && !run.stateDetails().isBlank()) {
            message += ": " + run.stateDetails();
        }
        return map(state, message);
    }

    /** Cancels the job run ({@code CancelJobRun}); it goes CANCELLING, then CANCELLED. */
    JobCanceller.Cancellation cancel(RunCheckRequest request) throws JobFailure {
        List<String> ids = Metadata.require(
                request.metadata(), "emr-serverless", Metadata.EMR_SL_APPLICATION_ID, Metadata.EMR_SL_JOB_RUN_ID);
        JobFailure.aws(
                "emr-serverless CancelJobRun",
                () -> emrServerless
                        .get()
                        .cancelJobRun(r -> r.applicationId(ids.get(0)).jobRunId(ids.get(1))));
        return JobCanceller.Cancellation.requested("emr-serverless job run " + ids.get(1) + " cancel requested");
    }

    static RunCheck map(JobRunState state, String message) {
        if (state == null) {
            return RunCheck.running(message);
        }
        return switch (state) {
            case SUCCESS -> RunCheck.succeeded(message);
            case FAILED -> RunCheck.failed(message, FailureCategory.TRANSIENT);
            case CANCELLED -> RunCheck.stopped(state.toString(), message);
            case SUBMITTED, PENDING, SCHEDULED, RUNNING, QUEUED, CANCELLING, UNKNOWN_TO_SDK_VERSION ->
                RunCheck.running(message);
        };
    }
}
