package dev.interlock.deps.trigger;

import dev.interlock.model.trigger.TriggerType;

import java.util.Map;
import java.util.Objects;

/**
 * One poll of a started job.
 *
 * @param metadata the ids the trigger returned ({@code glue_job_run_id}, {@code airflow_dag_run_id}, …)
 * @param headers  the trigger's configured headers, for authenticated Airflow and Databricks polls
 *                 ({@code INTERLOCK_*} references are expanded at poll time, like at trigger time)
 */
public record RunCheckRequest(String pipelineId, String runId, TriggerType triggerType, Map<String, String> metadata,
                              Map<String, String> headers) {

    public RunCheckRequest {
        Objects.requireNonNull(triggerType, "triggerType");
        metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
        headers = headers == null ? Map.of() : Map.copyOf(headers);
    }
}
