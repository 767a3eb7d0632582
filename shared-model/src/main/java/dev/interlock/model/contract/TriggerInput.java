package dev.interlock.model.contract;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The trigger Lambda's input (statemachine/CONTRACT.md §5). {@code trigger} stays a tree here so that a trigger config the model
 * rejects becomes a {@code failed} answer recorded on the run, not an exception before anything is written.
 * {@code runCreatedAt} (optional) is when {@code resolvePipeline} created the run PENDING: with it the trigger claims
 * the run without reading it first, and reads it only when that claim's condition fails.
 */
public record TriggerInput(
        String pipelineId,
        String scheduleId,
        String date,
        String runId,
        String executionName,
        JsonNode trigger,
        String runCreatedAt) {

    /** An input that does not say when the run was created: the trigger reads the run before claiming it. */
    public TriggerInput(
            String pipelineId, String scheduleId, String date, String runId, String executionName, JsonNode trigger) {
        this(pipelineId, scheduleId, date, runId, executionName, trigger, null);
    }
}
