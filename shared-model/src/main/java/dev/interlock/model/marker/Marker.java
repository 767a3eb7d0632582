package dev.interlock.model.marker;

import java.time.Instant;
import java.time.LocalDate;

/**
 * An item whose stream INSERT starts one evaluation of (pipeline, date, schedule) (SPEC §5). Its fields are also
 * written as top-level attributes so the stream router needs no read.
 *
 * @param suffix   the unique part of the sort key {@code MARKER#<source>#<suffix>}; the writer chooses it so a
 *                 re-write of the same logical marker hits the same key (idempotent)
 * @param replay   process even if the run log is already COMPLETED, and even if the marker is stale
 * @param origin   who caused it: the upstream pipeline for cascades, the rerun id for reruns, a user for manual ones
 */
public record Marker(
        String pipelineId,
        String scheduleId,
        LocalDate date,
        MarkerSource source,
        String suffix,
        boolean replay,
        String origin,
        String originRunId,
        Instant createdAt) {
}
