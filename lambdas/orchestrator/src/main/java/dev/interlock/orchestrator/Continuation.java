package dev.interlock.orchestrator;

import dev.interlock.model.event.EventKind;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.keys.LockKey;
import dev.interlock.model.marker.Marker;
import dev.interlock.model.marker.MarkerSource;
import dev.interlock.store.LockHolder;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A wait on NOT READY that outlasts its execution: a validation window ({@code sla.validationTimeout}) longer than
 * what one execution's time budget can still trigger and follow in is continued by a successor execution, as many
 * times as the window needs, so the day re-evaluates at its interval until the configured deadline and no longer.
 *
 * <p>The predecessor, after its last NOT READY round, (1) reports that round to the lock as always (next round by
 * {@code round + interval + ROUND_ALLOWANCE}, until the deadline), (2) passes its lock to the successor's execution name
 * ({@code Locker.handOver}: the lock is never free in between, so no other marker's execution can take it, and markers
 * meeting it are absorbed into the successor's next round), (3) writes the successor marker ({@link Successors},
 * source {@code continuation}, keyed by the predecessor, carrying its {@code replay}), (4) ends its own run CANCELLED
 * (the successor evaluates under a run of its own) and (5) records {@code EXECUTION_HANDED_OVER}. The lock is passed
 * before the marker exists, so the successor can never meet its predecessor's lock and be absorbed by it.
 *
 * <p>The successor, at its lock gate, finds the lock already its own and waits until the predecessor's next round
 * would have started (the lock's {@code nextRoundBy} less the round allowance) before it evaluates: one interval
 * after the predecessor's last round, not at once and not later.
 */
final class Continuation {

    private final Collaborators collaborators;

    Continuation(Collaborators collaborators) {
        this.collaborators = collaborators;
    }

    /**
     * Hands this execution's wait on NOT READY to a successor and answers the successor's execution name. The round
     * this execution just evaluated has already been reported to the lock.
     */
    String handOver(
            ActionRequest request, boolean replay, int executionTimeoutSeconds, Instant deadline, Instant budgetEnd) {
        Instant now = collaborators.now();
        String predecessor = request.executionName();
        String successor = Marker.handOver(
                        request.pipelineId(),
                        request.scheduleId(),
                        request.date(),
                        MarkerSource.CONTINUATION,
                        predecessor,
                        replay,
                        now)
                .executionName();
        LockKey key = LockOwner.key(request);
        Duration ttl = collaborators.settings().lockTtl(executionTimeoutSeconds);
        boolean lockPassed = collaborators.provider().locks().handOver(key, predecessor, successor, ttl);
        new Successors(collaborators).handOver(request, MarkerSource.CONTINUATION, predecessor, replay);
        // The predecessor's run never triggered and never will: the successor evaluates under a run of its own.
        RunCancellation.cancel(
                collaborators,
                request,
                "not ready yet; the wait continues in " + successor,
                Map.of("successorExecution", successor));
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("executionName", predecessor);
        details.put("successorExecution", successor);
        details.put("validationDeadline", InterlockJson.timestamp(deadline));
        details.put("latestTrigger", InterlockJson.timestamp(budgetEnd));
        details.put("lockPassed", lockPassed);
        details.put(
                "reason",
                "the validation window ends after the last moment this execution can still trigger and follow the job");
        collaborators.record(
                request,
                EventKind.EXECUTION_HANDED_OVER,
                "HANDED_OVER",
                "wait on NOT READY until " + InterlockJson.timestamp(deadline) + " handed over to " + successor
                        + (lockPassed ? " with the lock" : " (the lock was no longer this execution's)"),
                details);
        return successor;
    }

    /**
     * At a continuation's lock gate: while the lock its predecessor passed to it says its first round is still ahead,
     * the answer to wait for it (acquireLock's {@code waitSeconds}; the lock stays as passed, so markers meeting it are
     * absorbed into that round) and a {@code MARKER_DEFERRED} event saying so; empty when the round is due, or the lock
     * is not (or no longer) this execution's with a reported round: then the lock is acquired as always.
     */
    Optional<Outcome> awaitFirstRound(ActionRequest request, LockKey key, String owner) {
        Optional<Long> seconds = secondsUntilFirstRound(key, owner);
        if (seconds.isEmpty()) {
            return Optional.empty();
        }
        String reason = "continues its predecessor's wait on NOT READY; its first round is due in " + seconds.get()
                + " s, one evaluation interval after the predecessor's last";
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("executionName", owner);
        details.put("waitSeconds", seconds.get());
        collaborators.record(request, EventKind.MARKER_DEFERRED, "WAITING", reason, details);
        return Optional.of(Outcome.skip(reason, new AcquireLock.Payload(false, 0, false, seconds.get())));
    }

    private Optional<Long> secondsUntilFirstRound(LockKey key, String owner) {
        Optional<LockHolder> holder = collaborators.provider().locks().holder(key);
        if (holder.isEmpty()
                || !owner.equals(holder.get().owner())
                || holder.get().nextRoundBy() == null) {
            return Optional.empty();
        }
        Instant firstRound = holder.get().nextRoundBy().minusSeconds(CheckValidationDeadline.ROUND_ALLOWANCE_SECONDS);
        Instant now = collaborators.now();
        if (!now.isBefore(firstRound)) {
            return Optional.empty();
        }
        long millis = Duration.between(now, firstRound).toMillis();
        return Optional.of(Math.max(1, (millis + 999) / 1000));
    }
}
