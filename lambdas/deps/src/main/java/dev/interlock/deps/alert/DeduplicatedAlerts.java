package dev.interlock.deps.alert;

import dev.interlock.deps.alert.AlertPublisher;
import dev.interlock.deps.log.LogContext;
import dev.interlock.deps.log.StructuredLog;
import dev.interlock.model.alert.Alert;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.store.AlertKey;
import dev.interlock.store.AlertLedger;

import java.time.Clock;
import java.time.LocalDate;
import java.util.Map;

/**
 * Sends each alert kind once per (pipeline, date, schedule): claims the ledger entry, publishes, and gives the claim
 * back when publishing fails so a later attempt (the next check, the next watchdog tick) sends it.
 */
public final class DeduplicatedAlerts {

    private final AlertLedger ledger;
    private final AlertPublisher publisher;
    private final Clock clock;
    private final StructuredLog log;

    public DeduplicatedAlerts(AlertLedger ledger, AlertPublisher publisher, Clock clock, StructuredLog log) {
        this.ledger = ledger;
        this.publisher = publisher;
        this.clock = clock;
        this.log = log;
    }

    /**
     * Sends the alert unless one of this kind was already sent for (pipeline, date, schedule). Returns true when it
     * was sent now. A delivery failure is logged and reported as false, never thrown: an unreachable topic must not
     * fail the pipeline the alert is about.
     */
    public boolean raise(AlertKind kind, AlertLevel level, String pipelineId, String scheduleId, LocalDate date,
                         String message, Map<String, Object> details, LogContext context) {
        AlertKey key = new AlertKey(kind, pipelineId, date, scheduleId);
        if (!ledger.claim(key)) {
            log.info(context, "alert already sent", Map.of("kind", kind.wireName()));
            return false;
        }
        Alert alert = new Alert(level, kind, pipelineId, scheduleId, date, message,
                details == null || details.isEmpty() ? null : details, clock.instant());
        try {
            publisher.publish(alert);
        } catch (RuntimeException e) {
            ledger.release(key);
            log.error(context, "alert not delivered; claim released so a later attempt sends it",
                    Map.of("kind", kind.wireName()), e);
            return false;
        }
        log.info(context, "alert sent", Map.of("kind", kind.wireName(), "level", level.wireName()));
        return true;
    }
}
