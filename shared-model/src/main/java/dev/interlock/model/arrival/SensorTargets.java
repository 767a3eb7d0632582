package dev.interlock.model.arrival;

import dev.interlock.model.archetype.Archetype;
import dev.interlock.model.archetype.TraitResolution;
import dev.interlock.model.json.ConfigText;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.pipeline.ScheduleConfig;
import dev.interlock.model.rollup.RollupConfig;
import dev.interlock.model.rollup.RollupPeriods;
import dev.interlock.model.schedule.ScheduleWindow;
import dev.interlock.model.schedule.ScheduleWindows;
import dev.interlock.model.sensor.SensorPartition;
import dev.interlock.model.trait.BuiltinEvaluator;
import dev.interlock.model.trait.EvaluatorLocator;
import dev.interlock.model.trait.ResolvedTrait;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which (schedule, date) of a pipeline a write to a sensor concerns: those whose resolved traits read exactly the
 * written value with {@code sensor-threshold} or {@code sensor-freshness}, or whose {@code lineage-complete} gate waits
 * for the OpenLineage subject the (reserved) sensor holds, in the day partition its template names.
 * <ul>
 *   <li>An unpartitioned write concerns the traits without {@code partition}, on each schedule's current date (in its
 *       zone).</li>
 *   <li>A write to partition {@code p} concerns the traits whose {@code partition} template expands to {@code p} for
 *       that (schedule, date): {@code ${date}T${hour}} and {@code 2026-03-01T06} give schedule {@code h06} of
 *       2026-03-01. Dates are searched from the current date back {@code staleDays} days (older markers would be
 *       skipped as stale); a template without {@code ${date}} reads the same partition every day, so its write
 *       concerns the current date only. A future date is never a target.</li>
 * </ul>
 * Whether a target may start now (its window opened; it is not already completed) is the caller's decision.
 */
public final class SensorTargets {

    private static final String SENSOR_KEY = SensorReferences.SENSOR_KEY;

    private SensorTargets() {}

    /** One (schedule, date) the write concerns, the traits that read it there, and when its window opens. */
    public record Target(String scheduleId, LocalDate date, List<String> traitTypes, Instant opensAt) {
        public Target {
            traitTypes = List.copyOf(traitTypes);
        }

        /** Whether the window of the (schedule, date) has opened at {@code now}. */
        public boolean isOpen(Instant now) {
            return !now.isBefore(opensAt);
        }
    }

    /**
     * The targets of a write to {@code sensor} (partition null: its unpartitioned value) in {@code pipeline}, whose
     * traits are resolved with {@code archetype}; in date order, then schedule order.
     */
    public static List<Target> of(
            PipelineConfig pipeline, Archetype archetype, String sensor, String partition, Instant now, int staleDays) {
        List<Target> targets = new ArrayList<>();
        for (ScheduleConfig schedule : pipeline.effectiveSchedules()) {
            LocalDate today = ScheduleWindow.currentDate(pipeline, schedule.name(), now);
            // A cron schedule is one window per firing: each (window, date) a write can concern is a target.
            Map<String, Map<LocalDate, List<String>>> byWindow = new LinkedHashMap<>();
            for (LocalDate date = today.minusDays(staleDays); !date.isAfter(today); date = date.plusDays(1)) {
                for (String scheduleId : ScheduleWindows.idsOf(pipeline, schedule, date)) {
                    byWindow.putIfAbsent(scheduleId, new TreeMap<>());
                }
            }
            for (Map.Entry<String, Map<LocalDate, List<String>>> window : byWindow.entrySet()) {
                String scheduleId = window.getKey();
                Map<LocalDate, List<String>> byDate = window.getValue();
                for (ResolvedTrait trait : TraitResolution.resolve(pipeline, archetype, scheduleId, today)) {
                    BuiltinEvaluator builtin = builtinOf(trait);
                    if (builtin == null || !sensor.equals(sensorRead(builtin, trait.config()))) {
                        continue;
                    }
                    String template = builtin.readsSensor()
                            ? ConfigText.of(trait.config(), SensorPartition.CONFIG_KEY)
                            : builtin.partitionRead(trait.config());
                    boolean rollup = RollupConfig.declared(trait.config());
                    for (LocalDate date :
                            datesRead(pipeline.name(), scheduleId, template, rollup, partition, today, staleDays)) {
                        if (schedule.hasCron()
                                && ScheduleWindows.problem(pipeline, scheduleId, date)
                                        .isPresent()) {
                            continue; // that window does not exist that day (another weekday, a skipped hour)
                        }
                        byDate.computeIfAbsent(date, d -> new ArrayList<>()).add(trait.traitType());
                    }
                }
                byDate.forEach((date, traits) -> targets.add(new Target(
                        scheduleId,
                        date,
                        traits,
                        ScheduleWindow.of(pipeline, scheduleId, date).opensAt())));
            }
        }
        targets.sort((a, b) -> a.date().compareTo(b.date()));
        return targets;
    }

    /**
     * The dates on which a trait with this partition {@code template} (null: none) reads the written value; a rollup's
     * trait reads the partition of every hour of its date.
     */
    private static List<LocalDate> datesRead(
            String pipelineId,
            String scheduleId,
            String template,
            boolean rollup,
            String partition,
            LocalDate today,
            int staleDays) {
        if (partition == null || template == null) {
            return partition == null && template == null ? List.of(today) : List.of();
        }
        if (rollup) {
            // A rollup reads each hour's partition of its date.
            List<LocalDate> dates = new ArrayList<>();
            for (LocalDate date = today.minusDays(staleDays); !date.isAfter(today); date = date.plusDays(1)) {
                if (RollupPeriods.sensorPartitions(template, pipelineId, scheduleId, date)
                        .contains(partition)) {
                    dates.add(date);
                }
            }
            return dates;
        }
        if (!SensorPartition.dependsOnDate(template)) {
            return SensorPartition.expand(template, pipelineId, scheduleId, today)
                            .equals(partition)
                    ? List.of(today)
                    : List.of();
        }
        List<LocalDate> dates = new ArrayList<>();
        for (LocalDate date = today.minusDays(staleDays); !date.isAfter(today); date = date.plusDays(1)) {
            if (SensorPartition.expand(template, pipelineId, scheduleId, date).equals(partition)) {
                dates.add(date);
            }
        }
        return dates;
    }

    /** The builtin a trait is evaluated by when it reads a sensor (a lineage gate reads its reserved one); else null. */
    private static BuiltinEvaluator builtinOf(ResolvedTrait trait) {
        try {
            return trait.evaluator() != null
                            && !trait.evaluator().isBlank()
                            && EvaluatorLocator.parse(trait.evaluator()) instanceof EvaluatorLocator.Builtin builtin
                            && (builtin.evaluator().readsSensor()
                                    || builtin.evaluator() == BuiltinEvaluator.LINEAGE_COMPLETE)
                    ? builtin.evaluator()
                    : null;
        } catch (IllegalArgumentException unreadable) {
            // Registration refuses unreadable locators; a trait nobody can evaluate reads no sensor.
            return null;
        }
    }

    private static String sensorRead(BuiltinEvaluator builtin, Map<String, Object> config) {
        return builtin.readsSensor() ? ConfigText.of(config, SENSOR_KEY) : builtin.sensorRead(config);
    }
}
