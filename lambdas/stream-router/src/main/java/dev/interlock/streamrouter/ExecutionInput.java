package dev.interlock.streamrouter;

import dev.interlock.model.marker.Marker;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The input of one state-machine execution (statemachine/CONTRACT.md §2); every standard field is always written
 * because Choices read them.
 *
 * @param carried the state a monitoring successor resumes with (the marker's {@code carried}), written under the
 *                standard fields, which win; empty for every other execution
 */
public record ExecutionInput(
        String pipelineId,
        String scheduleId,
        LocalDate date,
        String markerSource,
        boolean replay,
        Map<String, Object> carried) {

    public ExecutionInput {
        carried = Marker.copyOfCarried(carried);
    }

    /** An execution that resumes nothing. */
    public ExecutionInput(String pipelineId, String scheduleId, LocalDate date, String markerSource, boolean replay) {
        this(pipelineId, scheduleId, date, markerSource, replay, Map.of());
    }

    /** The JSON document Step Functions receives: the carried state, then the standard fields over it. */
    public Map<String, Object> document() {
        Map<String, Object> document = new LinkedHashMap<>(carried);
        document.put("pipelineId", pipelineId);
        document.put("scheduleId", scheduleId);
        document.put("date", date.toString());
        document.put("markerSource", markerSource);
        document.put("replay", replay);
        return document;
    }
}
