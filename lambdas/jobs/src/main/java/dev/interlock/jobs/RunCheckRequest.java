package dev.interlock.jobs;

import dev.interlock.model.trigger.TemplateValues;
import dev.interlock.model.trigger.TriggerType;
import java.util.Map;
import java.util.Objects;

/**
 * One poll of a started job.
 *
 * @param date     the execution date ({@code YYYY-MM-DD}), for the header templates
 * @param metadata the ids the trigger returned ({@code glue_job_run_id}, {@code airflow_dag_run_id}, …)
 * @param headers  the trigger's header templates, for authenticated Airflow and Databricks polls (rendered at poll
 *                 time — execution values and credentials — like at trigger time)
 */
public record RunCheckRequest(
        String pipelineId,
        String scheduleId,
        String date,
        String runId,
        TriggerType triggerType,
        Map<String, String> metadata,
        Map<String, String> headers) {

    public RunCheckRequest {
        Objects.requireNonNull(triggerType, "triggerType");
        metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
        headers = headers == null ? Map.of() : Map.copyOf(headers);
    }

    /** The values the header templates take: those of the run being polled. */
    public TemplateValues templateValues() {
        return new TemplateValues(pipelineId, scheduleId, TriggerRequest.parse(date), runId);
    }
}
