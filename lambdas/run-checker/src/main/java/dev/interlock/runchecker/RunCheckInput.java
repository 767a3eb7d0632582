package dev.interlock.runchecker;

import java.util.Map;

/**
 * The run-checker Lambda's input (CONTRACT §5): the run, its trigger type, the trigger's output {@code metadata}, the
 * trigger's header templates (rendered at poll time: the run's values and credentials) and the 1-based poll number.
 * {@code metadata} values are read as whatever JSON scalar they are and compared as text.
 */
public record RunCheckInput(String pipelineId, String scheduleId, String date, String runId, String triggerType,
                            Map<String, Object> metadata, Map<String, String> headers, int pollCount) {
}
