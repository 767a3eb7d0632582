package dev.interlock.wiring.alert;

import dev.interlock.log.LogContext;
import dev.interlock.log.StructuredLog;
import dev.interlock.model.alert.Alert;
import dev.interlock.store.AlertHistory;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Publishes an alert, then records it in the alert history ({@link AlertHistory}: an {@code ALERT_SENT} event of its
 * pipeline day, listed by {@code GET /alerts}). Only a published alert is recorded, so a failed publish (retried
 * later) or a dry run (recorded as its {@code DRY_RUN_*} event instead, by {@link RoutedAlerts} before this) never
 * shows as sent, and a deduplicated repeat never reaches here. A failed record is logged, not thrown: the alert went
 * out, and failing now would make the caller send it again.
 */
public final class RecordedAlerts implements AlertPublisher {

    private final AlertPublisher real;
    private final Supplier<AlertHistory> history;
    private final StructuredLog log;

    public RecordedAlerts(AlertPublisher real, Supplier<AlertHistory> history, StructuredLog log) {
        this.real = real;
        this.history = history;
        this.log = log;
    }

    @Override
    public void publish(Alert alert) {
        real.publish(alert);
        // Counted once sent, per pipeline and kind (docs/metrics.md); a metric never fails the alert.
        log.metrics()
                .alert(
                        new LogContext(
                                alert.pipelineId(),
                                alert.scheduleId(),
                                alert.date() == null ? null : alert.date().toString(),
                                null,
                                null),
                        alert.kind().wireName());
        if (alert.pipelineId() == null || alert.date() == null || alert.scheduleId() == null) {
            log.warn(
                    LogContext.NONE,
                    "alert sent but not recorded: it names no pipeline day",
                    Map.of("kind", alert.kind().wireName()));
            return;
        }
        try {
            history.get().record(alert);
        } catch (RuntimeException e) {
            log.error(
                    LogContext.of(
                            alert.pipelineId(), alert.scheduleId(), alert.date().toString()),
                    "alert sent but not recorded in the alert history",
                    Map.of("kind", alert.kind().wireName()),
                    e);
        }
    }
}
