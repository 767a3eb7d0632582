package dev.interlock.store;

import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.keys.LockKey;
import dev.interlock.model.marker.ExecutionName;
import dev.interlock.model.marker.Marker;
import dev.interlock.model.marker.MarkerSource;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The release of a lock whose holder no longer runs: an operator's ({@code DELETE /pipelines/{id}/locks/…}) or
 * Interlock's own when it sees the holder's execution end without releasing (aborted, timed out). Both are audited by a
 * {@code LOCK_RELEASED} event naming who released it, the holder and why, written before the release so that there is
 * never a release without its record; and the markers the dead holder had absorbed are handed on to a new execution,
 * since their work is no longer anyone's. One successor per holder: its marker is keyed by the holder, so the two ways
 * of releasing the same holder's lock hand on its work once.
 */
public final class DeadHolderLocks {

    private DeadHolderLocks() {}

    /** The audit of a release, to append before the release itself. */
    public static Event audit(
            LockKey key, LockHolder holder, String releasedBy, String reason, Map<String, Object> extra, Instant now) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("releasedBy", releasedBy);
        details.put("previousHolder", holder.owner());
        if (holder.acquiredAt() != null) {
            details.put("heldSince", holder.acquiredAt().toString());
        }
        if (reason != null) {
            details.put("reason", reason);
        }
        details.putAll(extra);
        return new Event(
                EventKind.LOCK_RELEASED,
                key.pipelineId(),
                key.scheduleId(),
                key.date(),
                null,
                null,
                "RELEASED",
                "lock " + key.value() + " held by " + holder.owner() + " released by " + releasedBy
                        + (reason == null ? "" : ": " + reason),
                details,
                now);
    }

    /**
     * Hands the work {@code previousHolder} absorbed to a new execution (a {@code deferred} marker keyed by the holder)
     * and answers that execution's name; null when it had absorbed nothing.
     */
    public static String handOnAbsorbed(CascadeStore cascade, LockKey key, LockHolder previousHolder, Instant now) {
        if (previousHolder.absorbed() <= 0) {
            return null;
        }
        Marker marker = Marker.handOver(
                key.pipelineId(),
                key.scheduleId(),
                key.date(),
                MarkerSource.DEFERRED,
                "released-" + previousHolder.owner(),
                false,
                now);
        cascade.writeMarker(marker);
        return ExecutionName.of(
                marker.pipelineId(),
                marker.date(),
                marker.scheduleId(),
                marker.key().sk());
    }
}
