package dev.interlock.log;

import java.util.LinkedHashMap;
import java.util.Map;

/** What a log line is about: the pipeline, schedule, date, run and execution, whichever are known. */
public record LogContext(String pipelineId, String scheduleId, String date, String runId, String executionName) {

    public static final LogContext NONE = new LogContext(null, null, null, null, null);

    public static LogContext of(String pipelineId, String scheduleId, String date) {
        return new LogContext(pipelineId, scheduleId, date, null, null);
    }

    public LogContext withRun(String runId) {
        return new LogContext(pipelineId, scheduleId, date, runId, executionName);
    }

    public LogContext withExecution(String name) {
        return new LogContext(pipelineId, scheduleId, date, runId, name);
    }

    Map<String, String> fields() {
        Map<String, String> m = new LinkedHashMap<>();
        put(m, "pipelineId", pipelineId);
        put(m, "scheduleId", scheduleId);
        put(m, "date", date);
        put(m, "runId", runId);
        put(m, "executionName", executionName);
        return m;
    }

    private static void put(Map<String, String> m, String k, String v) {
        if (v != null && !v.isEmpty()) {
            m.put(k, v);
        }
    }
}
