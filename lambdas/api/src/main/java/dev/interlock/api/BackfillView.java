package dev.interlock.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.interlock.model.backfill.Backfill;

/**
 * A backfill as the API answers it: the backfill's own fields (without the store's {@code version} and
 * {@code alerted}), its {@code counts}, and {@code dryRun} — true for a plan, whose {@code backfillId} and
 * {@code status} are absent since nothing was recorded.
 */
record BackfillView(
        @JsonUnwrapped @JsonIgnoreProperties({"version", "alerted"})
        Backfill backfill,

        boolean dryRun,
        Backfill.Counts counts) {

    static BackfillView of(Backfill b, boolean dryRun) {
        return new BackfillView(b, dryRun, b.counts());
    }

    /** The listing's form: no days (a backfill can hold 500). */
    BackfillView withoutDays() {
        return new BackfillView(backfill.withoutDays(), dryRun, counts);
    }
}
