package dev.interlock.wiring.alert;

import dev.interlock.log.LogContext;
import dev.interlock.log.StructuredLog;
import dev.interlock.model.alert.Alert;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.store.AlertKey;
import dev.interlock.store.AlertLedger;
import dev.interlock.store.StoreException;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.util.Map;
import java.util.UUID;

/**
 * Sends each alert kind once per (pipeline, date, schedule), however many functions, executions and retries raise it:
 * claims the ledger entry for a short lease, publishes, and marks it sent. A failed publish gives the claim back at
 * once; a function that dies between claiming and publishing leaves a claim that its own retry (same claimant) takes
 * again at once and anyone else takes once the lease is over, so the alert is delayed by minutes, never swallowed.
 * When the ledger itself cannot be reached the alert is published anyway: a duplicate beats a lost alert.
 */
public final class DeduplicatedAlerts {

    /**
     * How long a claim keeps others from sending the same alert. Longer than any function's timeout (the longest is
     * 120 s), so a live publisher is never overtaken; short enough that a dead one delays the alert only minutes.
     */
    public static final Duration CLAIM_LEASE = Duration.ofMinutes(5);

    /** What became of one raised alert. */
    public enum Delivery {
        /** Published now. */
        SENT,
        /** Already sent (or being sent by a live claimant) for this kind and (pipeline, date, schedule). */
        DUPLICATE,
        /** The publish failed; the claim was given back so a later attempt sends it. */
        FAILED
    }

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
    public boolean raise(
            AlertKind kind,
            AlertLevel level,
            String pipelineId,
            String scheduleId,
            LocalDate date,
            String message,
            Map<String, Object> details,
            LogContext context) {
        return deliver(kind, level, pipelineId, scheduleId, date, message, details, context) == Delivery.SENT;
    }

    /**
     * Like {@link #raise} but says what happened. The claimant is the context's execution (a retried call of the same
     * execution may take its own unsent claim again at once); without one, every call is its own claimant.
     */
    public Delivery deliver(
            AlertKind kind,
            AlertLevel level,
            String pipelineId,
            String scheduleId,
            LocalDate date,
            String message,
            Map<String, Object> details,
            LogContext context) {
        AlertKey key = new AlertKey(kind, pipelineId, date, scheduleId);
        String claimant =
                context.executionName() != null && !context.executionName().isBlank()
                        ? context.executionName()
                        : "call-" + UUID.randomUUID();
        boolean claimed;
        try {
            if (!ledger.claim(key, claimant, CLAIM_LEASE)) {
                log.info(context, "alert already sent", Map.of("kind", kind.wireName()));
                return Delivery.DUPLICATE;
            }
            claimed = true;
        } catch (StoreException e) {
            log.error(
                    context,
                    "alert ledger unreachable; publishing without deduplication",
                    Map.of("kind", kind.wireName()),
                    e);
            claimed = false;
        }
        Alert alert = new Alert(
                level,
                kind,
                pipelineId,
                scheduleId,
                date,
                message,
                details == null || details.isEmpty() ? null : details,
                clock.instant());
        try {
            publisher.publish(alert);
        } catch (RuntimeException e) {
            if (claimed) {
                giveBack(key, claimant, kind, context);
            }
            log.error(
                    context,
                    "alert not delivered; claim given back so a later attempt sends it",
                    Map.of("kind", kind.wireName()),
                    e);
            return Delivery.FAILED;
        }
        if (claimed) {
            try {
                ledger.markSent(key, claimant);
            } catch (StoreException e) {
                // The claim's lease then runs out and a later raise may send the alert a second time: never zero times.
                log.error(context, "alert sent but not recorded as sent", Map.of("kind", kind.wireName()), e);
            }
        }
        log.info(context, "alert sent", Map.of("kind", kind.wireName(), "level", level.wireName()));
        return Delivery.SENT;
    }

    private void giveBack(AlertKey key, String claimant, AlertKind kind, LogContext context) {
        try {
            ledger.release(key, claimant);
        } catch (StoreException e) {
            log.error(
                    context,
                    "alert claim not given back; it frees itself when its lease is over",
                    Map.of("kind", kind.wireName()),
                    e);
        }
    }
}
