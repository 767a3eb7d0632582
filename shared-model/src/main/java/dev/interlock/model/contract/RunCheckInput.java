package dev.interlock.model.contract;

import java.util.Map;

/**
 * The run-checker Lambda's input (statemachine/CONTRACT.md §5): the run, its trigger type, the trigger's output {@code metadata}, the
 * trigger's header templates (rendered at poll time: the run's values and credentials) and what following the job
 * may take ({@code follow}; absent: a plain poll). {@code metadata} values are read as whatever JSON scalar they are
 * and compared as text.
 */
public record RunCheckInput(
        String pipelineId,
        String scheduleId,
        String date,
        String runId,
        String triggerType,
        Map<String, Object> metadata,
        Map<String, String> headers,
        Follow follow) {

    /**
     * What following one job may take.
     *
     * @param since                 when following began (the job was started just before)
     * @param pollLimit             polls of the poll window: a job still running after it is reported overdue
     * @param maxJobDurationSeconds a job running longer is cancelled (and may then be retried)
     * @param executionStartTime    with {@code executionTimeoutSeconds}: the execution's time budget, which following
     *                              never outlasts
     * @param nextPollSeconds       when the machine asks next if the job still runs (absent: the poll interval); for a
     *                              job that completes by callback, the fallback poll's heartbeat
     */
    public record Follow(
            String since,
            Integer pollIntervalSeconds,
            Integer pollLimit,
            Integer maxJobDurationSeconds,
            String executionStartTime,
            Integer executionTimeoutSeconds,
            Integer nextPollSeconds) {

        public Follow(
                String since,
                Integer pollIntervalSeconds,
                Integer pollLimit,
                Integer maxJobDurationSeconds,
                String executionStartTime,
                Integer executionTimeoutSeconds) {
            this(
                    since,
                    pollIntervalSeconds,
                    pollLimit,
                    maxJobDurationSeconds,
                    executionStartTime,
                    executionTimeoutSeconds,
                    null);
        }
    }
}
