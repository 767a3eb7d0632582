package dev.interlock.model.schedule;

import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.pipeline.ScheduleConfig;
import dev.interlock.model.window.WindowId;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which windows — pipeline days — a pipeline's schedules have on a date: one per plain schedule (its name), one per
 * firing of a cron schedule ({@code hourly.0000} … {@code hourly.2300}, read in the schedule's zone; a skipped local
 * time has none, a repeated one has one). The one place the schedule ids of a date come from.
 */
public final class ScheduleWindows {

    private ScheduleWindows() {}

    /** The schedule ids of {@code schedule}'s windows on {@code date} (its date in the schedule's zone). */
    public static List<String> idsOf(PipelineConfig config, ScheduleConfig schedule, LocalDate date) {
        if (!schedule.hasCron()) {
            return List.of(schedule.name());
        }
        List<String> ids = new ArrayList<>();
        for (LocalTime firing :
                CronSchedule.parse(schedule.cron()).firingsOn(date, ScheduleWindow.zoneOf(schedule, config.sla()))) {
            ids.add(schedule.windowId(firing));
        }
        return ids;
    }

    /** The schedule ids of every window of {@code config} on {@code date}, schedule by schedule. */
    public static List<String> idsOn(PipelineConfig config, LocalDate date) {
        List<String> ids = new ArrayList<>();
        for (ScheduleConfig schedule : config.effectiveSchedules()) {
            ids.addAll(idsOf(config, schedule, date));
        }
        return ids;
    }

    /**
     * Why {@code scheduleId} names no window of {@code config} on {@code date}, or empty when it does: a schedule the
     * config does not have, or a time its cron does not fire at that day (in its zone).
     */
    public static Optional<String> problem(PipelineConfig config, String scheduleId, LocalDate date) {
        Optional<ScheduleConfig> schedule = config.schedule(scheduleId);
        if (schedule.isEmpty()) {
            List<String> names = config.effectiveSchedules().stream()
                    .map(s -> s.hasCron() ? s.name() + ".HHMM" : s.name())
                    .toList();
            return Optional.of("pipeline '" + config.name() + "' has no schedule '" + scheduleId + "' (schedules: "
                    + String.join(", ", names) + ")");
        }
        if (!schedule.get().hasCron()) {
            return Optional.empty();
        }
        LocalTime firing = WindowId.parse(scheduleId).orElseThrow().firing();
        var zone = ScheduleWindow.zoneOf(schedule.get(), config.sla());
        if (CronSchedule.parse(schedule.get().cron()).firesAt(date, firing, zone)) {
            return Optional.empty();
        }
        return Optional.of("schedule '" + schedule.get().name() + "' (cron \""
                + schedule.get().cron().trim()
                + "\", " + zone.getId() + ") has no window at " + firing + " on " + date
                + (java.time.ZonedDateTime.of(date, firing, zone).toLocalTime().equals(firing)
                        ? ""
                        : ": the zone skips that time that day"));
    }

    /** The local time a cron window fires at, or empty for a plain schedule's id. */
    public static Optional<LocalTime> firingOf(PipelineConfig config, String scheduleId) {
        return config.schedule(scheduleId)
                .filter(ScheduleConfig::hasCron)
                .flatMap(s -> WindowId.parse(scheduleId))
                .map(WindowId::firing);
    }
}
