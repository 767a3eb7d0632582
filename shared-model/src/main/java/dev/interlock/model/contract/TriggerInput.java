package dev.interlock.model.contract;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The trigger Lambda's input (statemachine/CONTRACT.md §5). {@code trigger} stays a tree here so that a trigger config the model
 * rejects becomes a {@code failed} answer recorded on the run, not an exception before anything is written.
 */
public record TriggerInput(
        String pipelineId, String scheduleId, String date, String runId, String executionName, JsonNode trigger) {}
