package dev.interlock.jobs;

import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.trigger.GlueTrigger;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import software.amazon.awssdk.services.glue.GlueClient;
import software.amazon.awssdk.services.glue.model.JobRun;
import software.amazon.awssdk.services.glue.model.JobRunState;

/** Starts AWS Glue job runs ({@code StartJobRun}) and follows them ({@code GetJobRun}). */
final class GlueJob {

    private final Supplier<GlueClient> glue;

    GlueJob(Supplier<GlueClient> glue) {
        this.glue = glue;
    }

    TriggerResult start(GlueTrigger trigger) throws JobFailure {
        String jobName = Metadata.requireField(trigger.jobName(), "glue", "jobName");
        String runId = JobFailure.aws(
                "glue StartJobRun",
                () -> glue.get()
                        .startJobRun(r -> r.jobName(jobName).arguments(trigger.arguments()))
                        .jobRunId());
        return TriggerResult.running(Map.of(Metadata.GLUE_JOB_NAME, jobName, Metadata.GLUE_JOB_RUN_ID, runId));
    }

    RunCheck check(RunCheckRequest request) throws JobFailure {
        List<String> ids =
                Metadata.require(request.metadata(), "glue", Metadata.GLUE_JOB_NAME, Metadata.GLUE_JOB_RUN_ID);
        JobRun run = JobFailure.aws(
                "glue GetJobRun",
                () -> glue.get()
                        .getJobRun(r -> r.jobName(ids.get(0)).runId(ids.get(1)))
                        .jobRun());
        JobRunState state = run.jobRunState();
        String message = state == null ? "no state" : run.jobRunStateAsString();
        if (run.errorMessage() != null && !run.errorMessage().isBlank()) {
            message += ": " + run.errorMessage();
        }
        return map(state, message);
    }

    /** Stops the job run ({@code BatchStopJobRun}); the run goes STOPPING, then STOPPED. */
    JobCanceller.Cancellation cancel(RunCheckRequest request) throws JobFailure {
        List<String> ids =
                Metadata.require(request.metadata(), "glue", Metadata.GLUE_JOB_NAME, Metadata.GLUE_JOB_RUN_ID);
        var response = JobFailure.aws(
                "glue BatchStopJobRun",
                () -> glue.get().batchStopJobRun(r -> r.jobName(ids.get(0)).jobRunIds(ids.get(1))));
        if (response.hasErrors() && !response.errors().isEmpty()) {
            var error = response.errors().getFirst().errorDetail();
            return JobCanceller.Cancellation.refused("glue BatchStopJobRun refused run " + ids.get(1) + ": "
                    + (error == null ? "no detail" : error.errorCode() + " " + error.errorMessage()));
        }
        return JobCanceller.Cancellation.requested("glue job run " + ids.get(1) + " stop requested");
    }

    static RunCheck map(JobRunState state, String message) {
        if (state == null) {
            return RunCheck.running(message);
        }
        return switch (state) {
            case SUCCEEDED -> RunCheck.succeeded(message);
            case FAILED, ERROR, EXPIRED -> RunCheck.failed(message, FailureCategory.TRANSIENT);
            case TIMEOUT -> RunCheck.failed(message, FailureCategory.TIMEOUT);
            // Someone stopped the run on purpose: running it again would overrule them.
            case STOPPED -> RunCheck.failed(message, FailureCategory.PERMANENT);
            case STARTING, RUNNING, STOPPING, WAITING, UNKNOWN_TO_SDK_VERSION -> RunCheck.running(message);
        };
    }
}
