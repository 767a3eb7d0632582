package dev.interlock.model.validation;

import dev.interlock.model.json.JsonPath;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.pipeline.ScheduleConfig;
import dev.interlock.model.pipeline.TraitConfig;
import dev.interlock.model.rollup.RollupConfig;
import dev.interlock.model.rollup.RollupPeriods;
import dev.interlock.model.schedule.ScheduleWindows;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * A rollup over an upstream pipeline, checked against the upstream when it is registered (docs/pipeline-reference.md,
 * "Rollups"): the schedule it names must exist, the upstream must be finer (more windows a day than this pipeline —
 * a rollup over a coarser or equal upstream would wait for one window as if it were a day's worth), and
 * {@code minCount} must not exceed the upstream's windows. An upstream registered later is checked when its
 * downstream is registered again; until then the evaluator counts what the upstream has.
 */
final class RollupValidation {

    /** A weekday in January without a daylight-saving change in any zone: a day's windows, counted. */
    static final LocalDate SAMPLE_DATE = LocalDate.of(2026, 1, 14);

    private RollupValidation() {}

    static void check(
            PipelineConfig config,
            Function<String, Optional<PipelineConfig>> pipelines,
            PipelineValidation.Errors errors) {
        for (Map.Entry<String, TraitConfig> trait : config.traits().entrySet()) {
            if (trait.getValue() == null) {
                continue;
            }
            Optional<String> upstreamId = trait.getValue().upstreamPipeline();
            if (!RollupConfig.declared(trait.getValue().config()) || upstreamId.isEmpty()) {
                continue;
            }
            String configPath =
                    JsonPath.field(JsonPath.field(JsonPath.field(JsonPath.ROOT, "traits"), trait.getKey()), "config");
            Optional<PipelineConfig> upstream =
                    upstreamId.get().equals(config.name()) ? Optional.of(config) : pipelines.apply(upstreamId.get());
            if (upstream.isEmpty()) {
                continue;
            }
            try {
                check(config, upstream.get(), trait.getValue(), configPath, errors);
            } catch (IllegalArgumentException | DateTimeException e) {
                // A schedule this or the upstream's validation refuses: reported there.
            }
        }
    }

    private static void check(
            PipelineConfig config,
            PipelineConfig upstream,
            TraitConfig trait,
            String configPath,
            PipelineValidation.Errors errors) {
        String schedule = trait.upstreamSchedule().orElse(null);
        if (schedule != null && RollupPeriods.schedule(upstream, schedule).isEmpty()) {
            errors.add(
                    JsonPath.field(configPath, PipelineConfig.UPSTREAM_SCHEDULE),
                    "upstream " + upstream.name() + " has no schedule '" + schedule + "' (schedules: "
                            + String.join(
                                    ", ",
                                    upstream.effectiveSchedules().stream()
                                            .map(ScheduleConfig::name)
                                            .toList())
                            + ")");
            return;
        }
        int upstreamWindows =
                RollupPeriods.upstreamWindows(upstream, schedule, SAMPLE_DATE).size();
        int ownWindows = Math.max(1, ScheduleWindows.idsOn(config, SAMPLE_DATE).size());
        if (upstreamWindows <= ownWindows) {
            errors.add(
                    JsonPath.field(configPath, RollupConfig.CONFIG_KEY),
                    "a rollup needs a finer upstream: " + upstream.name()
                            + (schedule == null ? "" : " schedule " + schedule) + " has " + upstreamWindows
                            + " window" + (upstreamWindows == 1 ? "" : "s") + " a day and this pipeline " + ownWindows
                            + "; use upstream-run-log without rollup to wait for the same window");
            return;
        }
        // Read on its own, so it is checked even when another rollup field is wrong.
        if (trait.config().get(RollupConfig.CONFIG_KEY) instanceof Map<?, ?> fields
                && fields.get("minCount") instanceof Number minCount
                && minCount.longValue() > upstreamWindows) {
            errors.add(
                    JsonPath.field(JsonPath.field(configPath, RollupConfig.CONFIG_KEY), "minCount"),
                    "minCount " + minCount + " is more than the " + upstreamWindows + " windows a day of "
                            + upstream.name() + (schedule == null ? "" : " schedule " + schedule));
        }
    }
}
