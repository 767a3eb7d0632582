package dev.interlock.api;

import dev.interlock.model.backfill.Backfill;
import dev.interlock.model.backfill.BackfillDay;
import dev.interlock.model.backfill.BackfillMode;
import dev.interlock.model.backfill.BackfillOrder;
import dev.interlock.model.backfill.BackfillStatus;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;

/**
 * A backfill as the API answers it: the backfill, its counts, and (for a dry run) {@code dryRun: true} with
 * the days it would run and why.
 */
record BackfillView(
        String backfillId,
        String pipelineId,
        LocalDate from,
        LocalDate to,
        List<String> schedules,
        BackfillMode mode,
        int maxConcurrency,
        BackfillOrder order,
        boolean cascade,
        boolean dryRun,
        String reason,
        String requestedBy,
        Instant requestedAt,
        BackfillStatus status,
        String cancelledBy,
        String cancelReason,
        Instant updatedAt,
        Instant endedAt,
        Backfill.Counts counts,
        List<BackfillDay> days) {

    static BackfillView of(Backfill b, boolean dryRun) {
        return new BackfillView(
                dryRun ? null : b.backfillId(),
                b.pipelineId(),
                b.from(),
                b.to(),
                b.schedules(),
                b.mode(),
                b.maxConcurrency(),
                b.order(),
                b.cascade(),
                dryRun,
                b.reason(),
                b.requestedBy(),
                b.requestedAt(),
                dryRun ? null : b.status(),
                b.cancelledBy(),
                b.cancelReason(),
                b.updatedAt(),
                b.endedAt(),
                b.counts(),
                b.days());
    }

    /** The listing's form: no days (a backfill can hold 500). */
    BackfillView withoutDays() {
        return new BackfillView(
                backfillId,
                pipelineId,
                from,
                to,
                schedules,
                mode,
                maxConcurrency,
                order,
                cascade,
                dryRun,
                reason,
                requestedBy,
                requestedAt,
                status,
                cancelledBy,
                cancelReason,
                updatedAt,
                endedAt,
                counts,
                null);
    }
}
