package dev.interlock.model.event;

import dev.interlock.model.alert.Alert;
import dev.interlock.model.alert.Mute;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** The one home of the mute events: {@code MUTED} and {@code UNMUTED} (the audit) and {@code ALERT_MUTED}. */
public final class MuteEvents {

    private MuteEvents() {}

    /** The mute as event details: scope, target, window, who and why. */
    public static Map<String, Object> details(Mute mute) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("scope", mute.scope().wireName());
        details.put("target", mute.target());
        details.put("from", mute.from().toString());
        details.put("until", mute.until().toString());
        details.put("reason", mute.reason());
        details.put("mutedBy", mute.mutedBy());
        details.put("mutedAt", mute.mutedAt().toString());
        return details;
    }

    /** The audit record, on {@code pipelineId}, of a mute set on it or on its team. */
    public static Event muted(String pipelineId, Mute mute) {
        return new Event(
                EventKind.MUTED,
                pipelineId,
                null,
                null,
                null,
                null,
                mute.scope().wireName(),
                "alerts " + mute.describe(),
                details(mute),
                mute.mutedAt());
    }

    /** The audit record, on {@code pipelineId}, of a mute lifted before its end. */
    public static Event unmuted(String pipelineId, Mute mute, String by, String reason, Instant at) {
        Map<String, Object> details = details(mute);
        details.put("unmutedBy", by);
        if (reason != null) {
            details.put("unmuteReason", reason);
        }
        return new Event(
                EventKind.UNMUTED,
                pipelineId,
                null,
                null,
                null,
                null,
                mute.scope().wireName(),
                "alerts unmuted (" + mute.scope().wireName() + " " + mute.target() + ") by " + by
                        + (reason == null ? "" : ": " + reason),
                details,
                at);
    }

    /** What an alert a mute silenced leaves on its day instead of a page. */
    public static Event alertMuted(Alert alert, Mute mute) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("alertKind", alert.kind().wireName());
        details.put("alertLevel", alert.level().wireName());
        details.put("alertMessage", alert.message());
        details.put("mute", details(mute));
        return new Event(
                EventKind.ALERT_MUTED,
                alert.pipelineId(),
                alert.scheduleId(),
                alert.date(),
                null,
                null,
                alert.kind().wireName(),
                "not sent, " + mute.describe() + ": " + alert.kind().wireName() + ": " + alert.message(),
                details,
                alert.timestamp());
    }
}
