package dev.interlock.jobs;

import dev.interlock.model.trigger.TriggerType;

/**
 * What a job's terminal state, as its state-change event reports it, means for the run: the same mapping the poll of
 * each job type uses (so an event and a poll never disagree about a job).
 */
public final class JobStateEvents {

    private JobStateEvents() {}

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
