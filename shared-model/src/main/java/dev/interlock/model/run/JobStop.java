package dev.interlock.model.run;

import java.util.Map;

/**
 * Whether a run that ended without success was stopped rather than failing by itself — the one home of the rule that
 * decides an OpenLineage {@code ABORT} over a {@code FAIL} (docs/openlineage.md). A run is aborted when it was
 * cancelled ({@code CANCELLED}: Interlock or an operator ended it), when Interlock stopped its job past
 * {@code maxJobDurationSeconds} and saw it stop ({@link MaximumDuration}: failed {@code TIMEOUT}), or when the job
 * system reported the job stopped (Glue {@code STOPPED}, Step Functions {@code ABORTED}, EMR and EMR Serverless
 * {@code CANCELLED}, Databricks {@code CANCELED}): someone stopped it, recorded as {@link #STOPPED_AS} on the run by
 * whichever writer learnt the job's end. Its failure category is unchanged, so {@code retry} treats it as before.
 */
public final class JobStop {

    /** Run metadata: the job system's terminal state that says the job was stopped, e.g. {@code STOPPED}. */
    public static final String STOPPED_AS = "interlock_job_stopped_as";

    private JobStop() {}

    /**
     * {@code failed} (a run being recorded FAILED) marked as stopped when the job system reported it stopped
     * ({@code stoppedAs}, e.g. Glue {@code STOPPED}); unchanged when {@code stoppedAs} is null. Every writer that
     * learns a job's end records a stop through this.
     */
    public static RunState record(RunState failed, String stoppedAs) {
        return stoppedAs == null ? failed : failed.withMetadata(Map.of(STOPPED_AS, stoppedAs));
    }

    /** Whether {@code run} ended aborted (see the class comment); false for a run that has not ended or failed by itself. */
    public static boolean aborted(RunState run) {
        return switch (run.status()) {
            case CANCELLED -> true;
            case FAILED ->
                run.failureCategory() != FailureCategory.VERIFICATION
                        && (run.metadata().containsKey(STOPPED_AS)
                                || (MaximumDuration.stoppedByInterlock(run)
                                        && run.failureCategory() == FailureCategory.TIMEOUT));
            default -> false;
        };
    }
}
