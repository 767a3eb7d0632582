package dev.interlock.model.rerun;

import com.fasterxml.jackson.annotation.JsonAlias;
import dev.interlock.model.marker.MarkerSource;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Map;

/**
 * A request to re-process a (pipeline, date, schedule), by an operator ({@code manual}) or by late-arrival handling
 * ({@code late-arrival}), and what became of it.
 *
 * @param reason        why it was requested
 * @param status        where it is; moved only by {@code Provider.moveRerun}, conditionally
 * @param statusReason  why it is SKIPPED or FAILED ({@code null} otherwise)
 * @param executionName the execution its replay marker starts ({@code ExecutionName}), which the workflow moves it by
 * @param rerunRunId    the run that served it, once one did
 * @param endedAt       when it reached a terminal status
 */
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
        String statusReason,
        String executionName,
        String rerunRunId,
        Instant requestedAt,
        Instant updatedAt,
        @JsonAlias("completedAt") Instant endedAt,
        Map<String, Object> metadata) {

    /** The metadata key naming the backfill a {@link MarkerSource#BACKFILL} rerun serves a day of. */
    public static final String BACKFILL_ID = "backfillId";

    /** The backfill this rerun serves a day of, or null for every other rerun. */
    public String backfillId() {
        Object id = source == MarkerSource.BACKFILL && metadata != null ? metadata.get(BACKFILL_ID) : null;
        return id == null ? null : id.toString();
    }

    /** A new rerun, PENDING until its execution starts. */
    public static Rerun requested(
            String rerunId,
            String pipelineId,
            String scheduleId,
            LocalDate date,
            MarkerSource source,
            String originalRunId,
            String reason,
            String description,
            String executionName,
            Instant now,
            Map<String, Object> metadata) {
        return new Rerun(
                rerunId,
                pipelineId,
                scheduleId,
                date,
                source,
                originalRunId,
                reason,
                description,
                RerunStatus.PENDING,
                null,
                executionName,
                null,
                now,
                now,
                null,
                metadata);
    }

    /**
     * This rerun moved to {@code next} at {@code now}; {@code why} is kept for SKIPPED and FAILED, {@code runId} when a
     * run served it.
     */
    public Rerun movedTo(RerunStatus next, String why, String runId, Instant now) {
        return new Rerun(
                rerunId,
                pipelineId,
                scheduleId,
                date,
                source,
                originalRunId,
                reason,
                description,
                next,
                next == RerunStatus.SKIPPED || next == RerunStatus.FAILED ? why : null,
                executionName,
                runId != null ? runId : rerunRunId,
                requestedAt,
                now,
                next.isTerminal() ? now : null,
                metadata);
    }

    /**
     * This rerun, in the same status, now served by execution {@code successor}: its execution handed the work over
     * (a lock it waited too long for, a retry whose backoff outlasts its time budget), and the rerun's outcome is the
     * successor's.
     */
    public Rerun handedOverTo(String successor, Instant now) {
        return new Rerun(
                rerunId,
                pipelineId,
                scheduleId,
                date,
                source,
                originalRunId,
                reason,
                description,
                status,
                statusReason,
                successor,
                rerunRunId,
                requestedAt,
                now,
                endedAt,
                metadata);
    }
}
