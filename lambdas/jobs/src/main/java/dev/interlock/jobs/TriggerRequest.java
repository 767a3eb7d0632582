package dev.interlock.jobs;

import dev.interlock.model.trigger.TemplateValues;
import dev.interlock.model.trigger.TriggerConfig;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.Objects;

/**
 * One request to start a pipeline's job: the run it belongs to and the trigger as registered — its templates are
 * rendered by the runner at call time, with this run's values.
 *
 * @param date    the execution date ({@code YYYY-MM-DD})
 * @param resumed an earlier invocation claimed this run and died before recording its job: the job may have been
 *                started already, so the runner finds out first (the job system's idempotency token, or a lookup by
 *                the run id) and follows that job instead of starting a second one
 */
public record TriggerRequest(
        String pipelineId, String scheduleId, String date, String runId, TriggerConfig trigger, boolean resumed) {

    public TriggerRequest {
        Objects.requireNonNull(trigger, "trigger");
    }

    /** A first start of the run's job. */
    public TriggerRequest(String pipelineId, String scheduleId, String date, String runId, TriggerConfig trigger) {
        this(pipelineId, scheduleId, date, runId, trigger, false);
    }

    /** The values {@code ${date}}, {@code ${hour}}, {@code ${scheduleId}}, {@code ${pipelineId}}, {@code ${runId}} take. */
    public TemplateValues templateValues() {
        return new TemplateValues(pipelineId, scheduleId, parse(date), runId);
    }

    static LocalDate parse(String date) {
        try {
            return date == null || date.isBlank() ? null : LocalDate.parse(date.trim());
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
