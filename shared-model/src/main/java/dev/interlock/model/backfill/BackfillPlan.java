package dev.interlock.model.backfill;

import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.pipeline.ScheduleConfig;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.model.schedule.ReadableTime;
import dev.interlock.model.schedule.ScheduleWindow;
import dev.interlock.model.schedule.ScheduleWindows;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which windows of a range a backfill runs, in the order it starts them, and why each runs or is left alone: the one
 * home of the backfill's mode rules (docs/operations.md, "Backfills"). A pure function of the pipeline, the request and
 * what the table says of each day; each day it runs still passes its own gate when it starts.
 */
public final class BackfillPlan {

    private BackfillPlan() {}

    /** What the table says of one window, read by the caller. */
    public interface DayFacts {
        /** The window's run-log status, if it has a run log. */
        Optional<RunLogStatus> runLog(LocalDate date, String scheduleId);

        /** Why the pipeline skips {@code date} (its exclusions and calendar), or empty. */
        Optional<String> excluded(LocalDate date);
    }

    /** How many windows the range holds for {@code schedules} (to refuse a request before reading anything). */
    public static int windows(PipelineConfig pipeline, List<String> schedules, LocalDate from, LocalDate to) {
        int n = 0;
        for (LocalDate date = from; !date.isAfter(to); date = date.plusDays(1)) {
            for (String name : schedules) {
                n += ScheduleWindows.idsOf(pipeline, schedule(pipeline, name), date)
                        .size();
                if (n > Backfill.MAX_WINDOWS) {
                    return n;
                }
            }
        }
        return n;
    }

    /** The backfill's days: every window of {@code schedules} from {@code from} to {@code to}, in {@code order}. */
    public static List<BackfillDay> plan(
            PipelineConfig pipeline,
            List<String> schedules,
            LocalDate from,
            LocalDate to,
            BackfillMode mode,
            BackfillOrder order,
            DayFacts facts,
            Instant now) {
        List<BackfillDay> days = new ArrayList<>();
        boolean oldest = order != BackfillOrder.NEWEST;
        for (LocalDate date = oldest ? from : to;
                oldest ? !date.isAfter(to) : !date.isBefore(from);
                date = oldest ? date.plusDays(1) : date.minusDays(1)) {
            Optional<String> excluded = facts.excluded(date);
            for (String name : schedules) {
                for (String window : ScheduleWindows.idsOf(pipeline, schedule(pipeline, name), date)) {
                    days.add(day(pipeline, date, window, mode, excluded, facts, now));
                }
            }
        }
        return days;
    }

    private static BackfillDay day(
            PipelineConfig pipeline,
            LocalDate date,
            String window,
            BackfillMode mode,
            Optional<String> excluded,
            DayFacts facts,
            Instant now) {
        if (excluded.isPresent()) {
            return BackfillDay.skipped(date, window, "excluded: " + excluded.get(), now);
        }
        Instant opens = ScheduleWindow.of(pipeline, window, date).opensAt();
        if (opens.isAfter(now)) {
            return BackfillDay.skipped(
                    date,
                    window,
                    "its window opens at "
                            + ReadableTime.of(opens, ScheduleWindow.zoneOf(pipeline, window))
                            + ", after the backfill was asked for",
                    now);
        }
        Optional<RunLogStatus> log = facts.runLog(date, window);
        String last = log.map(s -> "last run " + s.wireName()).orElse("never ran");
        if (log.isPresent() && log.get() == RunLogStatus.RUNNING) {
            return BackfillDay.skipped(date, window, "running already: its run log is RUNNING", now);
        }
        return switch (mode) {
            case MISSING ->
                log.isPresent() && log.get() == RunLogStatus.COMPLETED
                        ? BackfillDay.skipped(
                                date, window, "completed already (mode missing runs days never completed)", now)
                        : BackfillDay.pending(date, window, last);
            case FAILED ->
                log.isPresent() && log.get() == RunLogStatus.FAILED
                        ? BackfillDay.pending(date, window, last)
                        : BackfillDay.skipped(date, window, last + " (mode failed runs failed days only)", now);
            case ALL ->
                BackfillDay.pending(
                        date,
                        window,
                        log.isPresent() && log.get() == RunLogStatus.COMPLETED
                                ? last + "; mode all runs it again"
                                : last);
        };
    }

    private static ScheduleConfig schedule(PipelineConfig pipeline, String name) {
        return pipeline.effectiveSchedules().stream()
                .filter(s -> s.name().equals(name))
                .findFirst()
                .orElseThrow(
                        () -> new IllegalArgumentException("'" + name + "' is not a schedule of " + pipeline.name()));
    }
}
