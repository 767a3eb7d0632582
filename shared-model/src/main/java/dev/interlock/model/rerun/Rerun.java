package dev.interlock.model.rerun;

import com.fasterxml.jackson.annotation.JsonAlias;
import dev.interlock.model.marker.MarkerSource;

import java.time.Instant;
import java.time.LocalDate;
import java.util.Map;

/** A request to re-process a (pipeline, date, schedule), by an operator or by late-arrival handling. */
public record Rerun(
        String rerunId,
        String pipelineId,
        String scheduleId,
        @JsonAlias("originalDate") LocalDate date,
        MarkerSource source,
        String originalRunId,
        String reason,
        String description,
        RerunStatus status,
        String rerunRunId,
        Instant requestedAt,
        Instant completedAt,
        Map<String, Object> metadata) {
}
