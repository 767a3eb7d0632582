package dev.interlock.model.validation;

import dev.interlock.model.json.JsonPath;
import dev.interlock.model.json.ValidationError;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.pipeline.ScheduleConfig;
import dev.interlock.model.pipeline.TraitConfig;
import dev.interlock.model.rollup.RollupConfig;
import dev.interlock.model.schedule.ScheduleWindows;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The rules of the pipeline graph, checked when a pipeline is registered (docs/pipeline-reference.md, "What registration
 * refuses"): no pipeline waits for itself, directly or through others (a cycle would never be ready), and an upstream
 * that is registered has the windows this pipeline waits for (the run log read and the cascade both name the upstream
 * window by schedule id: without {@code upstreamSchedule} it is this pipeline's own window id). Rollups read every
 * window of the upstream and are checked by {@link RollupValidation}.
 */
final class GraphValidation {

    /** A Monday in January without a daylight-saving change in any zone; a week covers weekday-only crons. */
    static final LocalDate SAMPLE_WEEK = LocalDate.of(2026, 1, 12);

    private static final int SAMPLE_DAYS = 7;
    private static final int MISSING_SHOWN = 3;

    private GraphValidation() {}

    /**
     * Checks the graph around {@code config}; {@code registry} says whether {@code pipelines} is the registry (then an
     * upstream it does not know is refused) or nothing is known (offline: only a pipeline waiting for itself).
     */
    static void check(
            PipelineConfig config,
            Function<String, Optional<PipelineConfig>> pipelines,
            boolean registry,
            PipelineValidation.Errors errors) {
        Function<String, Optional<PipelineConfig>> cached = cachedLookup(pipelines);
        String traitsPath = JsonPath.field(JsonPath.ROOT, "traits");
        for (Map.Entry<String, TraitConfig> trait : config.traits().entrySet()) {
            if (trait.getValue() == null
                    || !(trait.getValue().config().get(PipelineConfig.UPSTREAM_PIPELINE) instanceof String raw)
                    || !PipelineValidation.NAME.matcher(raw.trim()).matches()) {
                continue; // no upstream, or one that is not a pipeline id (reported by PipelineValidation)
            }
            String upstreamId = raw.trim();
            String configPath = JsonPath.field(JsonPath.field(traitsPath, trait.getKey()), "config");
            String upstreamPath = JsonPath.field(configPath, PipelineConfig.UPSTREAM_PIPELINE);
            if (upstreamId.equals(config.name())) {
                errors.add(
                        upstreamPath,
                        "a pipeline cannot be its own upstream (cycle " + config.name() + " -> " + config.name() + ")");
                continue;
            }
            Optional<List<String>> cycle = pathBack(upstreamId, config.name(), cached);
            if (cycle.isPresent()) {
                errors.add(
                        upstreamPath,
                        "upstream " + upstreamId + " would make a cycle: " + config.name() + " -> "
                                + String.join(" -> ", cycle.get()) + " (each waits for the next)");
                continue;
            }
            Optional<PipelineConfig> upstream = cached.apply(upstreamId);
            if (upstream.isEmpty()) {
                if (!registry) {
                    continue;
                }
                errors.add(
                        upstreamPath,
                        "upstream pipeline " + upstreamId
                                + " is not registered: register it first (interlock apply registers the upstreams of its files before"
                                + " their downstreams)");
                continue;
            }
            if (RollupConfig.declared(trait.getValue().config())) {
                continue;
            }
            try {
                checkSchedules(config, upstream.get(), trait.getValue().config(), configPath, errors);
            } catch (IllegalArgumentException | DateTimeException e) {
                // A schedule this or the upstream's validation refuses: reported there.
            }
        }
    }

    /**
     * What {@code downstream} would wait for in vain if {@code upstream} were registered as it is: the schedule checks
     * of the traits that name it (paths into the downstream's document). Its other upstreams are not looked at, so a
     * change to one pipeline is judged only by what it changes.
     */
    static List<ValidationError> scheduleProblems(PipelineConfig downstream, PipelineConfig upstream) {
        PipelineValidation.Errors errors = new PipelineValidation.Errors();
        String traitsPath = JsonPath.field(JsonPath.ROOT, "traits");
        for (Map.Entry<String, TraitConfig> trait : downstream.traits().entrySet()) {
            if (trait.getValue() == null
                    || !(trait.getValue().config().get(PipelineConfig.UPSTREAM_PIPELINE) instanceof String raw)
                    || !raw.trim().equals(upstream.name())
                    || RollupConfig.declared(trait.getValue().config())) {
                continue;
            }
            try {
                checkSchedules(
                        downstream,
                        upstream,
                        trait.getValue().config(),
                        JsonPath.field(JsonPath.field(traitsPath, trait.getKey()), "config"),
                        errors);
            } catch (IllegalArgumentException | DateTimeException e) {
                // A schedule registration refuses: not this change's to report.
            }
        }
        return errors.list();
    }

    /**
     * The upstream chain from {@code start} back to {@code target} following registered pipelines' upstreams, or empty
     * when {@code target} cannot be reached. Depth first in name order, so the same graph names the same cycle.
     */
    private static Optional<List<String>> pathBack(
            String start, String target, Function<String, Optional<PipelineConfig>> pipelines) {
        Set<String> visited = new HashSet<>();
        Deque<List<String>> stack = new ArrayDeque<>();
        stack.push(List.of(start));
        while (!stack.isEmpty()) {
            List<String> path = stack.pop();
            String last = path.getLast();
            if (last.equals(target)) {
                return Optional.of(path);
            }
            if (!visited.add(last)) {
                continue;
            }
            List<String> next = new ArrayList<>(
                    pipelines.apply(last).map(PipelineConfig::upstreamPipelines).orElse(Set.of()));
            for (int i = next.size() - 1; i >= 0; i--) {
                if (!visited.contains(next.get(i))) {
                    List<String> longer = new ArrayList<>(path);
                    longer.add(next.get(i));
                    stack.push(longer);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * {@code upstreamSchedule}, when set, must be a schedule id of the upstream; without it, every window this pipeline
     * has in a sample week must be a window the upstream has that week, or the run log this pipeline waits for never
     * exists.
     */
    private static void checkSchedules(
            PipelineConfig config,
            PipelineConfig upstream,
            Map<String, Object> traitConfig,
            String configPath,
            PipelineValidation.Errors errors) {
        if (traitConfig.get("upstreamSchedule") instanceof String s && !s.isBlank()) {
            if (upstream.schedule(s.trim()).isEmpty()) {
                errors.add(
                        JsonPath.field(configPath, "upstreamSchedule"),
                        "upstream " + upstream.name() + " has no schedule '" + s.trim() + "' (schedules: "
                                + scheduleNames(upstream) + ")");
            }
            return;
        }
        Set<String> upstreamWindows = new HashSet<>();
        for (int day = 0; day < SAMPLE_DAYS; day++) {
            upstreamWindows.addAll(ScheduleWindows.idsOn(upstream, SAMPLE_WEEK.plusDays(day)));
        }
        for (ScheduleConfig schedule : config.effectiveSchedules()) {
            Set<String> missing = new LinkedHashSet<>();
            for (int day = 0; day < SAMPLE_DAYS; day++) {
                for (String window : ScheduleWindows.idsOf(config, schedule, SAMPLE_WEEK.plusDays(day))) {
                    if (!upstreamWindows.contains(window)) {
                        missing.add(window);
                    }
                }
            }
            if (missing.isEmpty()) {
                continue;
            }
            List<String> shown = missing.stream().limit(MISSING_SHOWN).toList();
            errors.add(
                    JsonPath.field(configPath, PipelineConfig.UPSTREAM_PIPELINE),
                    "upstream " + upstream.name() + " has no window " + String.join(", ", shown)
                            + (missing.size() > shown.size()
                                    ? " (and " + (missing.size() - shown.size()) + " more)"
                                    : "")
                            + " of this pipeline's schedule '" + schedule.name()
                            + "', so those windows would wait forever (upstream schedules: " + scheduleNames(upstream)
                            + "); name the upstream window to wait for in upstreamSchedule");
        }
    }

    /** The upstream's schedule ids as a person writes them: a plain schedule's name, a cron schedule's {@code name.HHMM}. */
    static String scheduleNames(PipelineConfig pipeline) {
        return String.join(
                ", ",
                pipeline.effectiveSchedules().stream()
                        .map(s -> s.hasCron() ? s.name() + ".HHMM" : s.name())
                        .toList());
    }

    /** Each pipeline read once per check: the cycle search and the schedule check read the same ones. */
    private static Function<String, Optional<PipelineConfig>> cachedLookup(
            Function<String, Optional<PipelineConfig>> pipelines) {
        Map<String, Optional<PipelineConfig>> read = new HashMap<>();
        return id -> read.computeIfAbsent(id, pipelines);
    }
}
