package dev.interlock.api;

import dev.interlock.model.json.ValidationError;
import dev.interlock.model.keys.LockKey;
import dev.interlock.model.validation.PipelineValidation;
import dev.interlock.store.DeadHolderLocks;
import dev.interlock.store.LockHolder;
import dev.interlock.store.Provider;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code GET} and {@code DELETE /pipelines/{id}/locks/{scheduleId}/{date}}: who holds the evaluation lock of a day, and
 * the operator's release of a lock whose holder died (an aborted execution, a lost local runtime). A release is
 * audited (a {@code LOCK_RELEASED} event naming the caller, the previous holder and the reason); markers the dead
 * holder had absorbed are handed on to a new execution, since their work is no longer anyone's. A holder whose
 * execution is still RUNNING is not released (409 naming it): the next evaluation would take the lock beside it and
 * both could start the day's job. With {@code force=true} that execution is stopped first, then its lock released.
 */
final class LockRoutes {

    static final int MAX_REASON = MarkerRoutes.MAX_REASON;

    /** Step Functions' status of an execution that still runs. */
    static final String RUNNING = "RUNNING";

    private final Provider provider;
    private final Clock clock;
    private final HolderExecutions executions;

    LockRoutes(Provider provider, Clock clock, HolderExecutions executions) {
        this.provider = provider;
        this.clock = clock;
        this.executions = executions;
    }

    /** The lock as its holder left it. */
    record LockView(
            String pipelineId,
            String scheduleId,
            LocalDate date,
            String owner,
            Instant acquiredAt,
            Instant expiresAt,
            Instant nextRoundBy,
            Instant evaluatingUntil,
            int absorbed) {}

    /** The answer to a release. */
    record Released(
            String pipelineId,
            String scheduleId,
            LocalDate date,
            boolean released,
            String previousHolder,
            Instant heldSince,
            Instant expiresAt,
            int absorbed,
            String releasedBy,
            String reason,
            String reEmittedExecution,
            String stoppedExecution) {}

    ApiResponse get(ApiRequest request, Map<String, String> path) {
        LockKey key = key(path, List.of());
        requirePipeline(key.pipelineId());
        LockHolder holder = provider.locks().holder(key).orElseThrow(() -> notHeld(key));
        return ApiResponse.json(
                200,
                new LockView(
                        key.pipelineId(),
                        key.scheduleId(),
                        key.date(),
                        holder.owner(),
                        holder.acquiredAt(),
                        holder.expiresAt(),
                        holder.nextRoundBy(),
                        holder.evaluatingUntil(),
                        holder.absorbed()));
    }

    ApiResponse release(ApiRequest request, Map<String, String> path) {
        List<ValidationError> errors = new ArrayList<>();
        String reason = request.text("reason", MAX_REASON, errors);
        boolean force = request.flag("force", errors);
        LockKey key = key(path, errors);
        requirePipeline(key.pipelineId());
        LockHolder holder = provider.locks().holder(key).orElseThrow(() -> notHeld(key));
        boolean running =
                executions.status(holder.owner()).filter(RUNNING::equals).isPresent();
        if (running && !force) {
            throw ProblemException.of(
                    ProblemType.CONFLICT,
                    "the lock of " + key.pipelineId() + " schedule " + key.scheduleId() + " on " + key.date()
                            + " is held by execution " + holder.owner() + ", which is still RUNNING; releasing it"
                            + " would let a second execution run the day beside it. Stop that execution, or unlock"
                            + " with force=true (interlock unlock --force), which stops it first");
        }
        Instant now = clock.instant();
        // Audited before the release (and before the stop): there is never a release without its record.
        Map<String, Object> extra = running ? Map.of("stoppedExecution", holder.owner(), "force", true) : Map.of();
        provider.events().append(DeadHolderLocks.audit(key, holder, request.caller(), reason, extra, now));
        LockHolder released;
        if (running) {
            executions.stop(
                    holder.owner(),
                    "lock released by " + request.caller() + " with force" + (reason == null ? "" : ": " + reason));
            // The stopped execution's end may have released its lock already (executionEnded) and a new execution
            // taken it: only the stopped owner's lock is released here. Its work is handed on once either way (the
            // successor marker is keyed by the holder).
            released = provider.locks().releaseHeldBy(key, holder.owner()).orElse(holder);
        } else {
            released = provider.locks().forceRelease(key).orElse(holder);
        }
        String reEmitted = DeadHolderLocks.handOnAbsorbed(provider.cascade(), key, released, now);
        int absorbed = released.absorbed();
        return ApiResponse.json(
                200,
                new Released(
                        key.pipelineId(),
                        key.scheduleId(),
                        key.date(),
                        true,
                        holder.owner(),
                        holder.acquiredAt(),
                        holder.expiresAt(),
                        absorbed,
                        request.caller(),
                        reason,
                        reEmitted,
                        running ? holder.owner() : null));
    }

    private static LockKey key(Map<String, String> path, List<ValidationError> earlier) {
        List<ValidationError> errors = new ArrayList<>(earlier);
        String id = PathIds.pipelineId(path.get("id"));
        String scheduleId = path.get("scheduleId");
        if (scheduleId == null
                || !PipelineValidation.SCHEDULE_NAME.matcher(scheduleId).matches()) {
            errors.add(new ValidationError(
                    "path.scheduleId",
                    "'" + scheduleId + "' is not a schedule id (" + PipelineValidation.SCHEDULE_NAME.pattern() + ")"));
        }
        LocalDate date = null;
        try {
            date = LocalDate.parse(String.valueOf(path.get("date")));
        } catch (DateTimeParseException e) {
            errors.add(new ValidationError("path.date", "'" + path.get("date") + "' is not a date (YYYY-MM-DD)"));
        }
        if (!errors.isEmpty()) {
            throw ProblemException.invalid("the lock request has " + errors.size() + " problem(s)", errors);
        }
        return new LockKey(id, scheduleId, date);
    }

    private void requirePipeline(String id) {
        if (provider.pipelines().get(id).isEmpty()) {
            throw PipelineRoutes.notFound(id);
        }
    }

    private static ProblemException notHeld(LockKey key) {
        return ProblemException.of(
                ProblemType.NOT_FOUND,
                "no lock is held for " + key.pipelineId() + " schedule " + key.scheduleId() + " on " + key.date()
                        + "; nothing to release");
    }
}
