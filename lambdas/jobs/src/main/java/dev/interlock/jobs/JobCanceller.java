package dev.interlock.jobs;

/**
 * Asks a job system to stop a started job: how a job that ran longer than its pipeline's maximum job duration is ended
 * before it may be started again. Never throws: an unsupported or failed request is an outcome.
 */
public interface JobCanceller {

    Cancellation cancel(RunCheckRequest request);

    /**
     * What the job system said to the request to stop the job.
     *
     * @param requested true when the job system accepted the request (the job stops, or already had); the next polls
     *                  see it end
     * @param message   the job system's words, or why the request failed
     */
    record Cancellation(boolean requested, String message) {

        public static Cancellation requested(String message) {
            return new Cancellation(true, message);
        }

        public static Cancellation refused(String message) {
            return new Cancellation(false, message);
        }
    }
}
