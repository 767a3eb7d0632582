package dev.interlock.model.rollup;

import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.pipeline.ScheduleConfig;
import dev.interlock.model.schedule.ScheduleWindows;
import dev.interlock.model.trigger.ArgumentTemplate;
import dev.interlock.model.trigger.TemplateValues;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The periods a rollup covers on its date (docs/pipeline-reference.md, "Rollups"): the windows of an upstream
 * pipeline (of one of its schedules, or of all of them), or the 24 hourly partitions of a sensor.
 */
public final class RollupPeriods {

    /** The hours of a day a sensor rollup reads, as {@code ${hour}} fills them. */
    public static final int HOURS = 24;

    private RollupPeriods() {}

    /**
     * The upstream's windows on {@code date} (their dates in the upstream's zones): of the schedule named
     * {@code upstreamSchedule} (a plain schedule's name or a cron schedule's), or of every schedule when it is null.
     * Empty when the upstream has no such schedule.
     */
    public static List<String> upstreamWindows(PipelineConfig upstream, String upstreamSchedule, LocalDate date) {
        if (upstreamSchedule == null) {
            return ScheduleWindows.idsOn(upstream, date);
        }
        return schedule(upstream, upstreamSchedule)
                .map(s -> ScheduleWindows.idsOf(upstream, s, date))
                .orElse(List.of());
    }

    /** The upstream's schedule a rollup names: by its name, plain or cron. */
    public static Optional<ScheduleConfig> schedule(PipelineConfig upstream, String name) {
        return upstream.effectiveSchedules().stream()
                .filter(s -> name.trim().equals(s.name()))
                .findFirst();
    }

    /**
     * The partitions a sensor rollup reads for one (pipeline, schedule, date): {@code template} expanded for each hour
     * 00…23 ({@code ${hour}}), the other placeholders as for the window itself.
     */
    public static List<String> sensorPartitions(String template, String pipelineId, String scheduleId, LocalDate date) {
        TemplateValues values = new TemplateValues(pipelineId, scheduleId, date, null);
        List<String> partitions = new ArrayList<>(HOURS);
        for (int hour = 0; hour < HOURS; hour++) {
            partitions.add(ArgumentTemplate.expand(template.trim(), values.atHour(hour)));
        }
        return partitions;
    }

    /** Whether a partition template names a different partition for each hour (uses {@code ${hour}}). */
    public static boolean variesByHour(String template) {
        return ArgumentTemplate.parse(template).stream()
                .anyMatch(p -> p instanceof ArgumentTemplate.Part.RunValue v
                        && v.name().equals("hour"));
    }
}
