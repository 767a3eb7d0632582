package dev.interlock.orchestrator;

import dev.interlock.log.LogContext;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.model.keys.LockKey;
import dev.interlock.store.DeadHolderLocks;
import dev.interlock.store.LockHolder;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The release of a lock whose holder's execution ended (ABORTED, TIMED_OUT, FAILED…) while it held it, by whoever
 * learns of the end first: {@link ExecutionEnded} (the execution-end event) or {@link HolderCheckDuty} (the watchdog,
 * when that event never came). Audited before the release ({@link DeadHolderLocks#audit}), conditional on the owner
 * (so the second to learn changes nothing), the absorbed markers handed on. An end Interlock did not expect (not an
 * operator's abort) raises the deduplicated {@code EXECUTION_ERROR} alert; so does an abort whose end event was lost
 * when the holder had absorbed work (that work waited on a dead holder until the watchdog found it), while an abort
 * seen by its event is the operator's own act and only recorded.
 */
final class EndedHolders {

    /** A released lock: the holder as it was and the successor execution that took over its absorbed work, if any. */
    record Released(LockHolder holder, String successor) {}

    private final Collaborators c;

    EndedHolders(Collaborators collaborators) {
        this.c = collaborators;
    }

    /**
     * Releases {@code key} if execution {@code owner}, which ended with {@code status}, still holds it; empty (nothing
     * written) when it does not. {@code endEventLost}: the release comes from the watchdog, not the end event.
     */
    Optional<Released> release(
            LockKey key,
            String owner,
            String status,
            String reason,
            String releasedBy,
            boolean endEventLost,
            LogContext context) {
        Optional<LockHolder> holder = c.provider().locks().holder(key).filter(h -> owner.equals(h.owner()));
        if (holder.isEmpty()) {
            return Optional.empty();
        }
        Map<String, Object> extra = Map.of("executionName", owner, "executionStatus", status);
        c.provider().events().append(DeadHolderLocks.audit(key, holder.get(), releasedBy, reason, extra, c.now()));
        Optional<LockHolder> released = c.provider().locks().releaseHeldBy(key, owner);
        if (released.isEmpty()) {
            return Optional.empty();
        }
        String successor = DeadHolderLocks.handOnAbsorbed(c.provider().cascade(), key, released.get(), c.now());
        if (!status.equals("ABORTED") || endEventLost && released.get().absorbed() > 0) {
            Map<String, Object> details = new LinkedHashMap<>(extra);
            details.put("lockReleased", true);
            details.put("releasedBy", releasedBy);
            details.put("absorbed", released.get().absorbed());
            c.alerts()
                    .deliver(
                            AlertKind.EXECUTION_ERROR,
                            AlertLevel.ERROR,
                            key.pipelineId(),
                            key.scheduleId(),
                            key.date(),
                            "The execution ended " + status + " while holding its lock; Interlock released the lock"
                                    + (successor == null ? "" : " and handed its absorbed work to " + successor),
                            details,
                            context);
        }
        c.log()
                .info(
                        context,
                        "lock of an ended execution released",
                        Map.of("status", status, "absorbed", released.get().absorbed(), "releasedBy", releasedBy));
        return Optional.of(new Released(released.get(), successor));
    }
}
