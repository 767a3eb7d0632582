package dev.interlock.model.event;

import java.time.Instant;
import java.time.LocalDate;
import java.util.Map;

/** One entry of a pipeline's audit trail, read back with cursors (newest last). */
public record Event(
        EventKind kind,
        String pipelineId,
        String scheduleId,
        LocalDate date,
        String runId,
        String traitType,
        String status,
        String message,
        Map<String, Object> details,
        Instant timestamp) {}
