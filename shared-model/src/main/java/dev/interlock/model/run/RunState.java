package dev.interlock.model.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.interlock.model.force.Forced;
import dev.interlock.model.json.Frozen;
import dev.interlock.model.trigger.TriggerType;
import java.time.Instant;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One run (one attempt to trigger and follow the job); changed only by compare-and-swap on {@code version}.
 * {@code metadata} holds the job system's ids (e.g. {@code glue_job_run_id}) the run-checker needs.
 *
 * @param proceededWithout the traits this run went on without, past its readiness rule's {@code proceedAt} (empty
 *     when it was fully ready): recorded before its job starts, copied into the run log when its end is recorded
 * @param forced who forced its day ready and why, when it started only because of that (null otherwise; absent from
 *     the JSON then): recorded with {@code proceededWithout}, copied into the run log with it
 * @param dayCompletedAt when its day was recorded COMPLETED by this run — after its post-run checks passed, in the
 *     same write as the run log's completion (null until then; absent from the JSON then). A run's job may have
 *     ended successfully well before: this, not the status COMPLETED, is the run's end in OpenLineage
 *     ({@code RunTransition} in model.lineage)
 */
public record RunState(
        String runId,
        String pipelineId,
        String scheduleId,
        LocalDate date,
        RunStatus status,
        long version,
        TriggerType triggerType,
        String executionName,
        Map<String, String> metadata,
        String failureMessage,
        FailureCategory failureCategory,
        Instant createdAt,
        Instant updatedAt,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> proceededWithout,
        @JsonInclude(JsonInclude.Include.NON_NULL) Forced forced,
        @JsonInclude(JsonInclude.Include.NON_NULL) Instant dayCompletedAt) {
    public RunState {
        metadata = Frozen.map(metadata);
        proceededWithout = Frozen.list(proceededWithout);
    }

    /** A run that is (so far) fully ready, not forced, its day not (yet) recorded COMPLETED. */
    public RunState(
            String runId,
            String pipelineId,
            String scheduleId,
            LocalDate date,
            RunStatus status,
            long version,
            TriggerType triggerType,
            String executionName,
            Map<String, String> metadata,
            String failureMessage,
            FailureCategory failureCategory,
            Instant createdAt,
            Instant updatedAt) {
        this(
                runId,
                pipelineId,
                scheduleId,
                date,
                status,
                version,
                triggerType,
                executionName,
                metadata,
                failureMessage,
                failureCategory,
                createdAt,
                updatedAt,
                List.of(),
                null,
                null);
    }

    /**
     * This run at its next version, updated at {@code now}, recorded as going on without {@code traits} (the readiness
     * rule's deadline fallback).
     */
    public RunState proceedingWithout(List<String> traits, Instant now) {
        return new RunState(
                runId,
                pipelineId,
                scheduleId,
                date,
                status,
                version + 1,
                triggerType,
                executionName,
                metadata,
                failureMessage,
                failureCategory,
                createdAt,
                now,
                traits,
                forced,
                dayCompletedAt);
    }

    /**
     * This run at its next version, updated at {@code now}, recorded as started because its day was forced ready
     * ({@code forced}) without {@code traits}, the ones that held it back.
     */
    public RunState forcedWithout(Forced forced, List<String> traits, Instant now) {
        return new RunState(
                runId,
                pipelineId,
                scheduleId,
                date,
                status,
                version + 1,
                triggerType,
                executionName,
                metadata,
                failureMessage,
                failureCategory,
                createdAt,
                now,
                traits,
                forced,
                dayCompletedAt);
    }

    /**
     * The next version of this run in {@code next}; rejects moves the lifecycle does not allow, so no writer can
     * resurrect a terminal run.
     */
    public RunState moveTo(RunStatus next, Instant now) {
        if (!status.canMoveTo(next)) {
            throw new IllegalStateException("run " + runId + " cannot move from " + status + " to " + next
                    + "; allowed: " + status.allowedNext());
        }
        return next(next, now);
    }

    /**
     * This run at its next version as its day is recorded COMPLETED at {@code now} ({@code dayCompletedAt}): a run its
     * job system already reported COMPLETED keeps that status and its {@code updatedAt} (when the job ended), a RUNNING
     * or TRIGGERING one moves to COMPLETED now.
     */
    public RunState dayCompleted(Instant now) {
        RunState completed = status == RunStatus.COMPLETED ? next(status, updatedAt) : moveTo(RunStatus.COMPLETED, now);
        return completed.completedDayAt(now);
    }

    private RunState completedDayAt(Instant at) {
        return new RunState(
                runId,
                pipelineId,
                scheduleId,
                date,
                status,
                version,
                triggerType,
                executionName,
                metadata,
                failureMessage,
                failureCategory,
                createdAt,
                updatedAt,
                proceededWithout,
                forced,
                at);
    }

    /**
     * The job of this FAILED run succeeded after Interlock gave up on it (e.g. stopped following it past its maximum, or
     * its execution ended): the job's own end is the truth, so the run becomes COMPLETED (the one move out of a
     * terminal status, outside the lifecycle {@link RunStatus#canMoveTo} guards), keeps why it had failed, and its day
     * is recorded COMPLETED with it ({@code dayCompletedAt}).
     */
    public RunState completedLate(Instant now) {
        if (status != RunStatus.FAILED) {
            throw new IllegalStateException("run " + runId + " is " + status + ", not FAILED: nothing succeeded late");
        }
        return next(RunStatus.COMPLETED, now).completedDayAt(now);
    }

    /**
     * A run whose job succeeded but whose post-run checks did not pass ({@code postRun}): COMPLETED becomes FAILED
     * with {@code VERIFICATION} and {@code message}, the one move back from COMPLETED (docs/post-run-checks.md).
     */
    public RunState failedVerification(String message, Instant now) {
        if (status != RunStatus.COMPLETED && !status.canMoveTo(RunStatus.FAILED)) {
            throw new IllegalStateException("run " + runId + " is " + status + ": no success to verify");
        }
        return withFailure(message, FailureCategory.VERIFICATION).next(RunStatus.FAILED, now);
    }

    /**
     * The same run at its next version, updated at {@code now}: what a writer compares-and-swaps to record a fact on the
     * run (metadata added with {@link #withMetadata}) without moving its status.
     */
    public RunState nextVersion(Instant now) {
        return next(status, now);
    }

    /** This run at its next version with {@code next} as its status, updated at {@code now}. */
    private RunState next(RunStatus next, Instant now) {
        return new RunState(
                runId,
                pipelineId,
                scheduleId,
                date,
                next,
                version + 1,
                triggerType,
                executionName,
                metadata,
                failureMessage,
                failureCategory,
                createdAt,
                now,
                proceededWithout,
                forced,
                dayCompletedAt);
    }

    /**
     * A copy naming the trigger type and the execution that are starting the run ({@code resolvePipeline} may not have
     * known them; null keeps what the run had), with everything else it had: a degraded or forced start stays, to be
     * copied into the run log.
     */
    public RunState startedBy(TriggerType type, String execution) {
        return new RunState(
                runId,
                pipelineId,
                scheduleId,
                date,
                status,
                version,
                type != null ? type : triggerType,
                execution != null ? execution : executionName,
                metadata,
                failureMessage,
                failureCategory,
                createdAt,
                updatedAt,
                proceededWithout,
                forced,
                dayCompletedAt);
    }

    /** A copy with job metadata added (the trigger's ids). */
    public RunState withMetadata(Map<String, String> more) {
        Map<String, String> merged = new LinkedHashMap<>(metadata);
        merged.putAll(more);
        return new RunState(
                runId,
                pipelineId,
                scheduleId,
                date,
                status,
                version,
                triggerType,
                executionName,
                merged,
                failureMessage,
                failureCategory,
                createdAt,
                updatedAt,
                proceededWithout,
                forced,
                dayCompletedAt);
    }

    /** A copy carrying a failure description. */
    public RunState withFailure(String message, FailureCategory category) {
        return new RunState(
                runId,
                pipelineId,
                scheduleId,
                date,
                status,
                version,
                triggerType,
                executionName,
                metadata,
                message,
                category,
                createdAt,
                updatedAt,
                proceededWithout,
                forced,
                dayCompletedAt);
    }
}
