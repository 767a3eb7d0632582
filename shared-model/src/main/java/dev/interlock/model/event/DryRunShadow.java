package dev.interlock.model.event;

import dev.interlock.model.alert.Alert;
import dev.interlock.model.alert.AlertKind;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a dry-run pipeline records instead of acting: the one home of the {@code DRY_RUN_*} events. A dry run never
 * starts a job, never sends to the alert topic and never writes a FAILED run log; each thing that would have happened
 * is an event of the day: {@code DRY_RUN_WOULD_TRIGGER} (ready), {@code DRY_RUN_WOULD_RERUN} (ready again after it
 * would have run), {@code DRY_RUN_SLA_MET} / {@code DRY_RUN_SLA_MISSED} (each SLA deadline),
 * {@code DRY_RUN_WOULD_BE_EXHAUSTED} (the wait would end FAILED) and {@code DRY_RUN_WOULD_ALERT} (any other alert).
 */
public final class DryRunShadow {

    private DryRunShadow() {}

    /** The event an alert of {@code kind} becomes for a dry-run pipeline. */
    public static EventKind eventFor(AlertKind kind) {
        return switch (kind) {
            case SLA_EVALUATION_BREACHED, SLA_COMPLETION_BREACHED, SLA_MISSED -> EventKind.DRY_RUN_SLA_MISSED;
            case VALIDATION_EXHAUSTED -> EventKind.DRY_RUN_WOULD_BE_EXHAUSTED;
            default -> EventKind.DRY_RUN_WOULD_ALERT;
        };
    }

    /** The event that records, for a dry-run pipeline, the alert it would have sent. */
    public static Event instead(Alert alert) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("alertKind", alert.kind().wireName());
        details.put("alertLevel", alert.level().wireName());
        if (alert.details() != null) {
            details.putAll(alert.details());
        }
        return new Event(
                eventFor(alert.kind()),
                alert.pipelineId(),
                alert.scheduleId(),
                alert.date(),
                null,
                null,
                alert.kind().wireName(),
                "dry run: would alert " + alert.kind().wireName() + ": " + alert.message(),
                details,
                alert.timestamp());
    }
}
