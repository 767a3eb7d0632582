package dev.interlock.model.event;

import dev.interlock.model.pause.Pause;
import dev.interlock.model.watch.WatchEvent;
import java.time.Instant;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The one home of the pause audit events: {@code PAUSED} and {@code RESUMED}. */
public final class PauseEvents {

    /** The most missed windows a {@code RESUMED} event names (the count is always whole). */
    public static final int MISSED_LISTED = 100;

    private PauseEvents() {}

    /** The pause as event details: who, when and why. */
    private static Map<String, Object> details(Pause pause) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("reason", pause.reason());
        details.put("pausedBy", pause.pausedBy());
        details.put("pausedAt", pause.pausedAt().toString());
        return details;
    }

    /** The audit record of a pipeline paused. */
    public static Event paused(Pause pause) {
        return new Event(
                EventKind.PAUSED,
                pause.pipelineId(),
                null,
                null,
                null,
                null,
                "PAUSED",
                "pipeline " + pause.describe(),
                details(pause),
                pause.pausedAt());
    }

    /**
     * The audit record of a pipeline resumed by {@code by} at {@code at} (why: {@code reason}, may be null), naming the
     * windows that opened while it was paused and were not run.
     */
    public static Event resumed(Pause pause, String by, String reason, Instant at, List<WatchEvent> missed) {
        Map<String, Object> details = details(pause);
        details.put("resumedBy", by);
        if (reason != null) {
            details.put("resumeReason", reason);
        }
        details.put("missedWindowCount", missed.size());
        details.put(
                "missedWindows",
                missed.stream().limit(MISSED_LISTED).map(PauseEvents::window).toList());
        return new Event(
                EventKind.RESUMED,
                pause.pipelineId(),
                null,
                null,
                null,
                null,
                "RESUMED",
                "pipeline resumed by " + by + (reason == null ? "" : ": " + reason) + " (paused since "
                        + pause.pausedAt() + "; " + missed.size()
                        + " window(s) opened or turned away meanwhile and were not run)",
                details,
                at);
    }

    /**
     * The record of an {@code SLA_MISSED} alert the watchdog did not send because the pipeline is paused: an
     * {@code ALERT_MUTED} event of the day (status {@code PAUSED}) naming the pause.
     */
    public static Event deadlineNotAlerted(
            Pause pause, String scheduleId, LocalDate date, Map<String, Object> deadline, Instant at) {
        Map<String, Object> details = details(pause);
        details.put("alertKind", "SLA_MISSED");
        details.putAll(deadline);
        return new Event(
                EventKind.ALERT_MUTED,
                pause.pipelineId(),
                scheduleId,
                date,
                null,
                null,
                "PAUSED",
                "SLA_MISSED not sent (deadline " + deadline.get("deadline") + "): pipeline " + pause.describe(),
                details,
                at);
    }

    /** A missed window as event details and API answers show it. */
    public static Map<String, Object> window(WatchEvent opened) {
        Map<String, Object> window = new LinkedHashMap<>();
        window.put("scheduleId", opened.scheduleId());
        window.put("date", opened.date().toString());
        window.put("opensAt", opened.at().toString());
        return window;
    }
}
