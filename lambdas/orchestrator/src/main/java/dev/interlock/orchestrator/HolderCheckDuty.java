package dev.interlock.orchestrator;

import dev.interlock.log.LogContext;
import dev.interlock.model.keys.LockKey;
import dev.interlock.store.DueEntry;
import dev.interlock.store.HolderCheck;
import dev.interlock.store.LockHolder;
import dev.interlock.store.WatchdogIndex;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The watchdog's holder check: is the execution that holds a lock still running? {@code acquireLock} writes the check
 * with the lock (the machine sends the execution's ARN), due {@link #CHECK_INTERVAL} later. When it falls due the lock
 * is read first (one cheap GetItem): released, expired or held by someone else, the entry is dropped — all a lock
 * released the normal way ever costs. Held by the execution: Step Functions is asked (DescribeExecution). Still
 * RUNNING: the check is written again for the next tick. Anything else (ABORTED, TIMED_OUT, FAILED, … or gone): the
 * execution-end event that should have released the lock did not, so the lock is released here exactly as
 * {@link ExecutionEnded} would ({@link EndedHolders}: audited {@code LOCK_RELEASED} by {@value #RELEASED_BY}, absorbed
 * markers handed on, {@code EXECUTION_ERROR} alerted when the end was unexpected or the holder had absorbed work). So a
 * dead holder blocks its day for at most one watchdog tick, not the lock's TTL.
 */
final class HolderCheckDuty {

    /**
     * When a holder check falls due after it was written: no longer than the shortest watchdog rate (1 minute), so every
     * tick looks at every lock holder once.
     */
    static final Duration CHECK_INTERVAL = Duration.ofMinutes(1);

    /** Who the audit names as having released the lock. */
    static final String RELEASED_BY = "interlock (watchdog)";

    /** The status given to an execution Step Functions does not know (it cannot be running). */
    static final String NOT_FOUND = "NOT_FOUND";

    private static final String RUNNING = "RUNNING";

    private final Collaborators c;

    HolderCheckDuty(Collaborators collaborators) {
        this.c = collaborators;
    }

    /** Handles one due holder check; answers a problem for the tick's errors (the entry then stays for the next tick). */
    Optional<String> check(DueEntry entry) {
        HolderCheck check = entry.holder();
        LockKey key = check.lock(entry.pipelineId());
        WatchdogIndex index = c.provider().watchdog();
        Optional<LockHolder> holder = c.provider().locks().holder(key);
        if (holder.isEmpty() || !check.owner().equals(holder.get().owner())) {
            index.remove(entry);
            return Optional.empty();
        }
        LogContext context =
                new LogContext(key.pipelineId(), key.scheduleId(), key.date().toString(), null, check.owner());
        Optional<String> status;
        try {
            status = c.callbacks().executionStatus(check.executionArn());
        } catch (RuntimeException e) {
            c.log()
                    .warn(
                            context,
                            "holder check: could not describe the lock holder's execution; the next tick asks again",
                            Map.of("executionArn", check.executionArn(), "error", String.valueOf(e.getMessage())));
            return Optional.of(key.value() + ": holder check of " + check.owner() + ": " + e.getMessage());
        }
        if (status.isPresent() && RUNNING.equals(status.get())) {
            index.expectHolderCheck(entry.pipelineId(), check, c.now().plus(CHECK_INTERVAL));
            index.remove(entry);
            return Optional.empty();
        }
        String ended = status.orElse(NOT_FOUND);
        String reason = "execution " + ended + " (found by the watchdog's holder check; no execution-end event had"
                + " released the lock)";
        new EndedHolders(c).release(key, check.owner(), ended, reason, RELEASED_BY, true, context);
        index.remove(entry);
        return Optional.empty();
    }
}
