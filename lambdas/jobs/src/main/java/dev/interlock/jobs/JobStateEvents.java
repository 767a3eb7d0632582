package dev.interlock.jobs;

import dev.interlock.model.run.JobMetadata;
import dev.interlock.model.trigger.TriggerType;
import java.util.Map;

/**
 * What a job's terminal state, as its state-change event reports it, means for the run: the same mapping the poll of
 * each job type uses (so an event and a poll never disagree about a job).
 */
public final class JobStateEvents {

    private JobStateEvents() {}

    /**
     * Whether a success its event reports is taken only once the run-checker confirmed it: a Glue run's event says
     * neither its error message nor what its driver log holds ({@code FALSE_SUCCESS}, {@link GlueDriverLog}). Runs
     * whose trigger recorded the check's metadata ({@link JobMetadata#GLUE_ERROR_LOG_PATTERN}, empty when the log check
     * is off) are checked; runs started before the check existed keep the event's word.
     */
    public static boolean successVerifiedByPoll(TriggerType type, Map<String, String> runMetadata) {
        return type == TriggerType.GLUE && runMetadata.containsKey(JobMetadata.GLUE_ERROR_LOG_PATTERN);
    }

    /** {@code running} for a type that does not complete by callback or a state that is not terminal. */
    public static RunCheck outcome(TriggerType type, String state, String message) {
        return switch (type) {
            case GLUE -> GlueJob.map(software.amazon.awssdk.services.glue.model.JobRunState.fromValue(state), message);
            case EMR -> EmrJob.map(software.amazon.awssdk.services.emr.model.StepState.fromValue(state), message);
            case EMR_SERVERLESS ->
                EmrServerlessJob.map(
                        software.amazon.awssdk.services.emrserverless.model.JobRunState.fromValue(state), message);
            case STEP_FUNCTION ->
                StepFunctionJob.map(
                        software.amazon.awssdk.services.sfn.model.ExecutionStatus.fromValue(state), message);
            case HTTP, AIRFLOW, DATABRICKS, LAMBDA -> RunCheck.running(message);
        };
    }
}
