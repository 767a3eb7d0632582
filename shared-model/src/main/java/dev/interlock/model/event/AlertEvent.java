package dev.interlock.model.event;

import dev.interlock.model.alert.Alert;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.model.pipeline.Ownership;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The one home of how a sent alert is an event of its pipeline day ({@link EventKind#ALERT_SENT}) and back: the
 * pipeline page shows the event, {@code GET /alerts} reads the alert out of it.
 */
public final class AlertEvent {

    static final String ALERT_KIND = "alertKind";
    static final String ALERT_LEVEL = "alertLevel";
    /** Whose the alert's pipeline is ({@link Ownership}), as the alert carried it. */
    static final String ALERT_OWNER = "alertOwner";

    static final String ALERT_TEAM = "alertTeam";
    static final String ALERT_LABELS = "alertLabels";
    static final String ALERT_RUNBOOK = "alertRunbook";

    private AlertEvent() {}

    /** The event that records {@code alert} as sent. */
    public static Event of(Alert alert) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put(ALERT_KIND, alert.kind().wireName());
        details.put(ALERT_LEVEL, alert.level().wireName());
        putIfPresent(details, ALERT_OWNER, alert.owner());
        putIfPresent(details, ALERT_TEAM, alert.team());
        if (!alert.labels().isEmpty()) {
            details.put(ALERT_LABELS, alert.labels());
        }
        putIfPresent(details, ALERT_RUNBOOK, alert.runbook());
        if (alert.details() != null) {
            alert.details().forEach(details::putIfAbsent);
        }
        return new Event(
                EventKind.ALERT_SENT,
                alert.pipelineId(),
                alert.scheduleId(),
                alert.date(),
                null,
                null,
                alert.kind().wireName(),
                alert.message(),
                details,
                alert.timestamp());
    }

    /** The alert an {@link EventKind#ALERT_SENT} event records. */
    public static Alert alertOf(Event event) {
        if (event.kind() != EventKind.ALERT_SENT) {
            throw new IllegalArgumentException("not an alert event: " + event.kind());
        }
        Map<String, Object> details = new LinkedHashMap<>(event.details() == null ? Map.of() : event.details());
        Object level = details.remove(ALERT_LEVEL);
        details.remove(ALERT_KIND);
        Ownership ownership = new Ownership(
                text(details.remove(ALERT_OWNER)),
                text(details.remove(ALERT_TEAM)),
                labels(details.remove(ALERT_LABELS)),
                text(details.remove(ALERT_RUNBOOK)));
        return new Alert(
                        level == null ? AlertLevel.WARNING : AlertLevel.fromJson(level.toString()),
                        AlertKind.fromJson(event.status()),
                        event.pipelineId(),
                        event.scheduleId(),
                        event.date(),
                        event.message(),
                        details.isEmpty() ? null : details,
                        event.timestamp())
                .routedTo(ownership);
    }

    private static void putIfPresent(Map<String, Object> details, String key, String value) {
        if (value != null) {
            details.put(key, value);
        }
    }

    private static String text(Object value) {
        return value == null ? null : value.toString();
    }

    private static Map<String, String> labels(Object value) {
        Map<String, String> labels = new LinkedHashMap<>();
        if (value instanceof Map<?, ?> map) {
            map.forEach((k, v) -> labels.put(String.valueOf(k), String.valueOf(v)));
        }
        return labels;
    }
}
