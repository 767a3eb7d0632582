package dev.interlock.model.run;

import dev.interlock.model.trigger.TriggerType;
import java.time.Instant;
import java.time.LocalDate;

/**
 * Where a run that waits for its job by callback and the job's terminal state-change event meet, keyed by the job
 * system's own id. Either side may come first: the machine's waiting task records {@code waiter} (the run and its
 * task token), the job-state rule's delivery records {@code end}; whichever writes second sees both and completes the
 * wait. Null while that side has not come.
 */
public record JobCallback(TriggerType triggerType, String jobId, Waiter waiter, JobEnd end) {

    /** The run waiting for the job, and the task token that ends its wait (valid only while the task waits). */
    public record Waiter(
            String pipelineId,
            String scheduleId,
            LocalDate date,
            String runId,
            String executionName,
            String taskToken) {}

    /** The job's terminal state as its job system reported it (e.g. Glue {@code SUCCEEDED}), and when. */
    public record JobEnd(String state, String message, Instant at) {}

    /** Both sides have come: the wait can be completed. */
    public boolean complete() {
        return waiter != null && end != null;
    }
}
