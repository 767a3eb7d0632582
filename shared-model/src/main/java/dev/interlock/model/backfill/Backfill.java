package dev.interlock.model.backfill;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * An operator's request to run a range of a pipeline's days again, each through its own gate (docs/operations.md,
 * "Backfills"), and where it is. Its days are started {@code maxConcurrency} at a time, in plan order, as reruns that do
 * not spend the rerun budget; its progress is the progress of those reruns. The store writes every change as the next
 * {@code version}, only over the version it was made from, so two writers never both start a day.
 *
 * @param schedules     the schedules asked for (all the pipeline's when the request named none)
 * @param cascade       whether a day's completion wakes the pipeline's downstreams (off: they are held)
 * @param requestedBy   the caller (an IAM principal on AWS, {@code local} locally)
 * @param cancelledBy   who cancelled it, and {@code cancelReason} why (null unless cancelled)
 * @param alerted       whether its summary alert went out; until then the watchdog keeps it in view
 * @param days          its windows in the order they start
 */
public record Backfill(
        String backfillId,
        String pipelineId,
        LocalDate from,
        LocalDate to,
        List<String> schedules,
        BackfillMode mode,
        int maxConcurrency,
        BackfillOrder order,
        boolean cascade,
        String reason,
        String requestedBy,
        Instant requestedAt,
        BackfillStatus status,
        String cancelledBy,
        String cancelReason,
        Instant updatedAt,
        Instant endedAt,
        boolean alerted,
        long version,
        List<BackfillDay> days) {

    /** The longest range, in days. */
    public static final int MAX_DAYS = 366;
    /** The most windows one backfill runs (an hourly schedule has 24 a day). */
    public static final int MAX_WINDOWS = 500;
    /** The most days of one backfill running at once. */
    public static final int MAX_CONCURRENCY = 10;
    /** The longest reason. */
    public static final int MAX_REASON = 1000;

    public Backfill {
        schedules = List.copyOf(schedules);
        days = List.copyOf(days);
    }

    /** How many of its days are where. */
    public record Counts(int total, int pending, int running, int completed, int failed, int skipped) {}

    /** How many of its days are in each status. */
    public Counts counts() {
        int[] n = new int[BackfillDayStatus.values().length];
        for (BackfillDay day : days) {
            n[day.status().ordinal()]++;
        }
        return new Counts(
                days.size(),
                n[BackfillDayStatus.PENDING.ordinal()],
                n[BackfillDayStatus.RUNNING.ordinal()],
                n[BackfillDayStatus.COMPLETED.ordinal()],
                n[BackfillDayStatus.FAILED.ordinal()],
                n[BackfillDayStatus.SKIPPED.ordinal()]);
    }

    /** The next day to start, if it has one and may start one now ({@code RUNNING} and below its concurrency). */
    public Optional<Integer> nextToStart() {
        if (status != BackfillStatus.RUNNING || counts().running() >= maxConcurrency) {
            return Optional.empty();
        }
        for (int i = 0; i < days.size(); i++) {
            if (days.get(i).status() == BackfillDayStatus.PENDING) {
                return Optional.of(i);
            }
        }
        return Optional.empty();
    }

    /** This backfill with day {@code index} changed by {@code change}. */
    public Backfill withDay(int index, UnaryOperator<BackfillDay> change, Instant now) {
        List<BackfillDay> next = new ArrayList<>(days);
        next.set(index, change.apply(days.get(index)));
        return with(status, cancelledBy, cancelReason, endedAt, alerted, next, now);
    }

    /**
     * Cancelled by {@code by} for {@code why}: its pending days are SKIPPED with that reason, its running days finish;
     * CANCELLING while any runs.
     */
    public Backfill cancelled(String by, String why, Instant now) {
        String skip = "cancelled by " + by + (why == null || why.isBlank() ? "" : ": " + why);
        List<BackfillDay> next = new ArrayList<>();
        for (BackfillDay day : days) {
            next.add(
                    day.status() == BackfillDayStatus.PENDING
                            ? day.ended(BackfillDayStatus.SKIPPED, skip, null, now)
                            : day);
        }
        return with(BackfillStatus.CANCELLING, by, why, null, alerted, next, now);
    }

    /** Whether nothing of it runs or waits to start: it can end. */
    @JsonIgnore
    public boolean isDone() {
        Counts c = counts();
        return c.pending() + c.running() == 0 || (status == BackfillStatus.CANCELLING && c.running() == 0);
    }

    /** Ended: COMPLETED, or CANCELLED when it was cancelled. */
    public Backfill ended(Instant now) {
        BackfillStatus end = status == BackfillStatus.CANCELLING ? BackfillStatus.CANCELLED : BackfillStatus.COMPLETED;
        return with(end, cancelledBy, cancelReason, now, alerted, days, now);
    }

    /** Its summary alert went out. */
    public Backfill alertSent(Instant now) {
        return with(status, cancelledBy, cancelReason, endedAt, true, days, now);
    }

    /** One line for the summary event and alert: {@code backfill <id> of <pipeline> COMPLETED: 8 completed, …}. */
    public String summary() {
        Counts c = counts();
        return "backfill " + backfillId + " of " + pipelineId + " (" + from + " to " + to + ") " + status.wireName()
                + ": " + c.completed() + " completed, " + c.failed() + " failed, " + c.skipped() + " skipped of "
                + c.total() + (cancelledBy == null ? "" : "; cancelled by " + cancelledBy);
    }

    private Backfill with(
            BackfillStatus nextStatus,
            String by,
            String why,
            Instant end,
            boolean sent,
            List<BackfillDay> nextDays,
            Instant now) {
        return new Backfill(
                backfillId,
                pipelineId,
                from,
                to,
                schedules,
                mode,
                maxConcurrency,
                order,
                cascade,
                reason,
                requestedBy,
                requestedAt,
                nextStatus,
                by,
                why,
                now,
                end,
                sent,
                version,
                nextDays);
    }

    /** This backfill as version {@code next} (what the store writes). */
    public Backfill atVersion(long next) {
        return new Backfill(
                backfillId,
                pipelineId,
                from,
                to,
                schedules,
                mode,
                maxConcurrency,
                order,
                cascade,
                reason,
                requestedBy,
                requestedAt,
                status,
                cancelledBy,
                cancelReason,
                updatedAt,
                endedAt,
                alerted,
                next,
                days);
    }
}
