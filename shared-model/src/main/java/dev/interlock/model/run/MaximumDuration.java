package dev.interlock.model.run;

/**
 * A job Interlock stopped because it ran past {@code maxJobDurationSeconds} failed {@code TIMEOUT}, whoever learns its
 * end — a poll, its job-state event or the watchdog's callback check — so {@code retry} retries it as documented
 * ({@code retryableFailures} defaults to TRANSIENT and TIMEOUT).
 */
public final class MaximumDuration {

    /** Run metadata: when Interlock asked the job system to stop the job. */
    public static final String CANCEL_REQUESTED_AT = "interlock_cancel_requested_at";

    private MaximumDuration() {}

    /** Whether Interlock asked the job system to stop {@code run}'s job for running past its maximum. */
    public static boolean stoppedByInterlock(RunState run) {
        return run.metadata().containsKey(CANCEL_REQUESTED_AT);
    }

    /** The failure of a job Interlock stopped: {@code TIMEOUT}, with when it was asked to stop and the job's words. */
    public static String timeoutMessage(RunState run, String jobMessage) {
        return "cancelled by Interlock at " + run.metadata().get(CANCEL_REQUESTED_AT)
                + " after running longer than maxJobDurationSeconds: " + jobMessage;
    }
}
