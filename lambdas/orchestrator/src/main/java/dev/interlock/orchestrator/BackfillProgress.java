package dev.interlock.orchestrator;

import dev.interlock.log.LogContext;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.model.backfill.Backfill;
import dev.interlock.model.rerun.Rerun;
import dev.interlock.store.BackfillDriver;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The orchestrator's side of backfills (docs/operations.md, "Backfills"): when a day of a backfill ends (its rerun
 * ended, its execution released the day) the backfill is advanced at once, so its next day starts without waiting for
 * the watchdog; the watchdog advances every backfill in view on each tick, which carries on whatever an advance left
 * (a crash between two writes, a pause lifted). Whoever ends a backfill sends its {@code BACKFILL_FINISHED} alert.
 */
final class BackfillProgress {

    private final Collaborators collaborators;
    private final BackfillDriver driver;

    BackfillProgress(Collaborators collaborators) {
        this.collaborators = collaborators;
        this.driver = new BackfillDriver(collaborators.provider());
    }

    /**
     * Advances the backfill {@code rerun} serves a day of, if it serves one. Never fails the action it follows: an
     * advance that cannot be made now is logged and left to the watchdog's next tick.
     */
    void after(Optional<Rerun> rerun, LogContext context) {
        rerun.map(Rerun::backfillId).ifPresent(id -> {
            try {
                advance(id, context);
            } catch (RuntimeException e) {
                collaborators
                        .log()
                        .error(
                                context,
                                "backfill not advanced; the watchdog's next tick will",
                                Map.of("backfillId", id),
                                e);
            }
        });
    }

    /** Advances every backfill in view (the watchdog's duty); answers the ids it could not advance, with why. */
    List<String> tick() {
        List<String> errors = new java.util.ArrayList<>();
        for (Backfill backfill : collaborators.provider().backfills().active()) {
            try {
                advance(backfill.backfillId(), LogContext.of(backfill.pipelineId(), null, null));
            } catch (RuntimeException e) {
                collaborators
                        .log()
                        .error(
                                LogContext.NONE,
                                "backfill not advanced",
                                Map.of("backfillId", backfill.backfillId()),
                                e);
                errors.add("backfill " + backfill.backfillId() + ": " + e.getMessage());
            }
        }
        return errors;
    }

    private void advance(String backfillId, LogContext context) {
        driver.advance(backfillId, collaborators.now())
                .filter(BackfillDriver.Advance::owesAlert)
                .ifPresent(advance -> alert(advance.backfill(), context));
    }

    /** The summary alert: INFO when every day it ran completed, WARNING when one failed. */
    private void alert(Backfill backfill, LogContext context) {
        Backfill.Counts counts = backfill.counts();
        Map<String, Object> details = new LinkedHashMap<>(BackfillDriver.details(backfill));
        details.put("status", backfill.status().wireName());
        details.put("completed", counts.completed());
        details.put("failed", counts.failed());
        details.put("skipped", counts.skipped());
        details.put("total", counts.total());
        details.put("requestedBy", backfill.requestedBy());
        collaborators
                .alerts()
                .raise(
                        AlertKind.BACKFILL_FINISHED,
                        counts.failed() > 0 ? AlertLevel.WARNING : AlertLevel.INFO,
                        backfill.pipelineId(),
                        alertScheduleId(backfill),
                        backfill.to(),
                        "Backfill " + backfill.summary(),
                        details,
                        context);
        driver.alerted(backfill, collaborators.now());
    }

    /**
     * The schedule id the summary alert is deduplicated under: the backfill's own ({@code backfill-<id>}), so two
     * backfills of the same range each alert once.
     */
    static String alertScheduleId(Backfill backfill) {
        return "backfill-" + backfill.backfillId();
    }
}
