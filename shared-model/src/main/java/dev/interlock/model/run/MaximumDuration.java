package dev.interlock.model.run;

/**
 * A job Interlock stopped because it ran past {@code maxJobDurationSeconds} failed {@code TIMEOUT}, whoever learns its
 * end — a poll, its job-state event or the watchdog's callback check — so {@code retry} retries it as documented
 * ({@code retryableFailures} defaults to TRANSIENT and TIMEOUT).
 */
public final class MaximumDuration {

    /** Run metadata: when Interlock asked the job system to stop the job. */
    public static final String CANCEL_REQUESTED_AT = "interlock_cancel_requested_at";

    /**
     * Run metadata: when Interlock decided to stop the job, written before it asks the job system, so the stop's own
     * job-state event, however fast, finds the run marked.
     */
    public static final String STOP_ASKED_AT = "interlock_stop_asked_at";

    private MaximumDuration() {}

    /** Whether Interlock asked (or was about to ask) the job system to stop {@code run}'s job past its maximum. */
    public static boolean stoppedByInterlock(RunState run) {
        return run.metadata().containsKey(CANCEL_REQUESTED_AT) || run.metadata().containsKey(STOP_ASKED_AT);
    }

    /** The failure of a job Interlock stopped: {@code TIMEOUT}, with when it was asked to stop and the job's words. */
    public static String timeoutMessage(RunState run, String jobMessage) {
        String at =
                run.metadata().getOrDefault(CANCEL_REQUESTED_AT, run.metadata().get(STOP_ASKED_AT));
        return "cancelled by Interlock at " + at + " after running longer than maxJobDurationSeconds: " + jobMessage;
    }
}
