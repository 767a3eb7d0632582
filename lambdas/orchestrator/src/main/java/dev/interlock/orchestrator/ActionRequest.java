package dev.interlock.orchestrator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.interlock.log.LogContext;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.json.InterlockJson;
import java.time.LocalDate;

/**
 * One decoded request: the envelope of statemachine/CONTRACT.md §4 with a parsed {@code date}; {@code payload} is
 * the action-specific object, read into a per-action record with the shared codec.
 */
public record ActionRequest(
        OrchestratorAction action,
        String pipelineId,
        String scheduleId,
        LocalDate date,
        String runId,
        String executionName,
        JsonNode payload) {

    public ActionRequest {
        payload = payload == null || payload.isNull() ? JsonNodeFactory.instance.objectNode() : payload;
        runId = blankToNull(runId);
        executionName = blankToNull(executionName);
    }

    /** The payload as a per-action request record; unknown keys are ignored, keys match case-insensitively. */
    public <T> T payload(Class<T> type) {
        try {
            return InterlockJson.convert(payload, type);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid payload for " + action.wireName() + ": " + rootMessage(e), e);
        }
    }

    /** The same request about {@code run} (for an action that reads its run from the state, not the envelope). */
    public ActionRequest forRun(String run) {
        return new ActionRequest(action, pipelineId, scheduleId, date, run, executionName, payload);
    }

    /** What log lines about this request are about. */
    public LogContext logContext() {
        return new LogContext(pipelineId, scheduleId, date == null ? null : date.toString(), runId, executionName);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage();
    }
}
