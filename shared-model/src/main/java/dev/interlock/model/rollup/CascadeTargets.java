package dev.interlock.model.rollup;

import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.pipeline.TraitConfig;
import dev.interlock.model.schedule.ScheduleWindows;
import dev.interlock.model.window.WindowId;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which windows of a downstream pipeline an upstream window's completion concerns (docs/pipeline-reference.md,
 * "Rollups"): a rollup trait of the downstream that reads the upstream ({@code config.upstreamPipeline} with
 * {@code rollup}, and {@code upstreamSchedule}, when set, naming the completed window's schedule) reads every upstream
 * window of the date, so each of the downstream's windows of that date is a target; without one, the downstream's
 * window of the same schedule id, as a cascade always did.
 */
public final class CascadeTargets {

    /** One downstream window to notify; {@code rollup} when a rollup reads the completed window. */
    public record Target(String scheduleId, Optional<RollupConfig> rollup) {}

    private CascadeTargets() {}

    public static List<Target> of(
            PipelineConfig downstream, String upstreamId, String upstreamScheduleId, LocalDate date) {
        for (TraitConfig trait : downstream.traits().values()) {
            if (trait == null || !trait.upstreamPipeline().equals(Optional.of(upstreamId))) {
                continue;
            }
            Optional<RollupConfig> rollup = RollupConfig.of(trait.config());
            if (rollup.isPresent()
                    && trait.upstreamSchedule()
                            .map(s -> ofSchedule(upstreamScheduleId, s))
                            .orElse(true)) {
                List<Target> targets = new ArrayList<>();
                for (String window : ScheduleWindows.idsOn(downstream, date)) {
                    targets.add(new Target(window, rollup));
                }
                return targets;
            }
        }
        return List.of(new Target(upstreamScheduleId, Optional.empty()));
    }

    /** Whether {@code scheduleId} is a window of the schedule named {@code schedule} (its name, or a cron window of it). */
    static boolean ofSchedule(String scheduleId, String schedule) {
        return scheduleId.equals(schedule)
                || WindowId.parse(scheduleId)
                        .map(w -> w.scheduleName().equals(schedule))
                        .orElse(false);
    }
}
