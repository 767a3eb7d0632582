package dev.interlock.deps.trigger;

import dev.interlock.model.trigger.TriggerConfig;

import java.util.Objects;

/**
 * One request to start a pipeline's job: the run it belongs to and the trigger, whose {@code arguments} templates
 * are already expanded.
 *
 * @param date the execution date ({@code YYYY-MM-DD}), for logs
 */
public record TriggerRequest(String pipelineId, String scheduleId, String date, String runId, TriggerConfig trigger) {

    public TriggerRequest {
        Objects.requireNonNull(trigger, "trigger");
    }
}
