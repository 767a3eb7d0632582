package dev.interlock.jobs;

import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.trigger.GlueTrigger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import software.amazon.awssdk.services.glue.GlueClient;
import software.amazon.awssdk.services.glue.model.JobRun;
import software.amazon.awssdk.services.glue.model.JobRunState;

/**
 * Starts AWS Glue job runs ({@code StartJobRun}) and follows them ({@code GetJobRun}). A run that ends
 * {@code SUCCEEDED} is not taken at its word: an error message on it, or (when the run-checker checks it, with the
 * pattern its trigger recorded) driver-log lines matching the pattern, make it a {@code FALSE_SUCCESS}
 * ({@link GlueDriverLog}).
 */
final class GlueJob {

    private final Supplier<GlueClient> glue;
    /** Null: no driver-log check here (the watchdog's checks, which must not need the logs grant). */
    private final GlueDriverLog driverLog;

    GlueJob(Supplier<GlueClient> glue) {
        this(glue, null);
    }

    GlueJob(Supplier<GlueClient> glue, GlueDriverLog driverLog) {
        this.glue = glue;
        this.driverLog = driverLog;
    }

    /**
     * The argument every job run carries with the Interlock run that started it: Glue has no idempotency token, so a
     * resumed trigger finds the job run it may have started by this argument ({@code GetJobRuns}).
     */
    static final String RUN_ID_ARGUMENT = "--interlock-run-id";

    /** How many of the job's newest runs a resumed trigger looks through (two pages of GetJobRuns). */
    private static final int LOOKUP_PAGES = 2;

    TriggerResult start(GlueTrigger trigger, TriggerRequest request) throws JobFailure {
        String jobName = Metadata.requireField(trigger.jobName(), "glue", "jobName");
        Map<String, String> arguments = new LinkedHashMap<>(trigger.arguments());
        boolean tagged = request.runId() != null && !request.runId().isBlank();
        if (tagged) {
            arguments.put(RUN_ID_ARGUMENT, request.runId());
        }
        EarlierStart earlier = null;
        if (request.resumed() && tagged) {
            String how = "glue GetJobRuns of " + jobName + " by " + RUN_ID_ARGUMENT + " " + request.runId();
            String started = startedBefore(jobName, request.runId());
            if (started != null) {
                return TriggerResult.running(metadata(trigger, jobName, started))
                        .withEarlierStart(EarlierStart.found(how));
            }
            earlier = EarlierStart.none(how);
        }
        String runId = JobFailure.aws(
                "glue StartJobRun",
                () -> glue.get()
                        .startJobRun(r -> r.jobName(jobName).arguments(arguments))
                        .jobRunId());
        return TriggerResult.running(metadata(trigger, jobName, runId)).withEarlierStart(earlier);
    }

    /**
     * The run's ids, and the driver-log check's pattern (empty: the log check is off, the error-message check stays),
     * which also tells the callback path to let the run-checker confirm the run's success.
     */
    private static Map<String, String> metadata(GlueTrigger trigger, String jobName, String runId) {
        String pattern = trigger.effectiveErrorLogPattern();
        return Map.of(
                Metadata.GLUE_JOB_NAME,
                jobName,
                Metadata.GLUE_JOB_RUN_ID,
                runId,
                Metadata.GLUE_ERROR_LOG_PATTERN,
                pattern == null ? "" : pattern);
    }

    /** The job run an earlier claim of {@code interlockRunId} started, found by its argument; null: none. */
    private String startedBefore(String jobName, String interlockRunId) throws JobFailure {
        String nextToken = null;
        for (int page = 0; page < LOOKUP_PAGES; page++) {
            String token = nextToken;
            var response = JobFailure.aws(
                    "glue GetJobRuns",
                    () -> glue.get().getJobRuns(r -> r.jobName(jobName).nextToken(token)));
            for (JobRun run : response.jobRuns()) {
                if (run.hasArguments() && interlockRunId.equals(run.arguments().get(RUN_ID_ARGUMENT))) {
                    return run.id();
                }
            }
            nextToken = response.nextToken();
            if (nextToken == null || nextToken.isBlank()) {
                return null;
            }
        }
        return null;
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
        boolean errorMessage = run.errorMessage() != null && !run.errorMessage().isBlank();
        if (errorMessage) {
            message += ": " + run.errorMessage();
        }
        if (state != JobRunState.SUCCEEDED) {
            return map(state, message);
        }
        if (errorMessage) {
            return RunCheck.failed(
                    "glue job run " + ids.get(1) + " ended SUCCEEDED with an error message: " + run.errorMessage(),
                    FailureCategory.FALSE_SUCCESS);
        }
        String pattern = request.metadata().get(Metadata.GLUE_ERROR_LOG_PATTERN);
        if (driverLog != null && pattern != null && !pattern.isBlank()) {
            RunCheck lie = driverLog.check(ids.get(1), pattern);
            if (lie != null) {
                return lie;
            }
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
            case STOPPED -> RunCheck.stopped(state.toString(), message);
            case STARTING, RUNNING, STOPPING, WAITING, UNKNOWN_TO_SDK_VERSION -> RunCheck.running(message);
        };
    }
}
