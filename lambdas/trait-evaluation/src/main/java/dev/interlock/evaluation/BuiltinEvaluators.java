package dev.interlock.evaluation;

import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.rollup.RollupConfig;
import dev.interlock.model.rollup.RollupPeriods;
import dev.interlock.model.rollup.RollupTally;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.model.sensor.SensorPartition;
import dev.interlock.model.sensor.SensorValue;
import dev.interlock.model.trait.BuiltinEvaluator;
import dev.interlock.model.trait.ResolvedTrait;
import dev.interlock.model.trait.TraitStatus;
import dev.interlock.store.Provider;
import dev.interlock.store.RunLogKey;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The evaluators that run inside the evaluator Lambda ({@code builtin:<name>}, docs/pipeline-reference.md), reading run logs and sensor
 * values from the store. A store failure propagates (an infrastructure fault); a config mistake is ERROR PERMANENT.
 */
final class BuiltinEvaluators {

    private final Provider provider;
    private final Clock clock;
    private final LineageCompleteEvaluator lineage;

    BuiltinEvaluators(Provider provider, Clock clock) {
        this.provider = provider;
        this.clock = clock;
        this.lineage = new LineageCompleteEvaluator(provider);
    }

    Verdict evaluate(BuiltinEvaluator builtin, ResolvedTrait trait) {
        BuiltinConfig config = new BuiltinConfig(builtin.wireName(), trait.config());
        try {
            return switch (builtin) {
                case UPSTREAM_RUN_LOG -> upstreamRunLog(trait, config);
                case SENSOR_THRESHOLD -> sensorThreshold(trait, config);
                case SENSOR_FRESHNESS -> sensorFreshness(trait, config);
                case LINEAGE_COMPLETE -> lineage.evaluate(trait);
                case ALWAYS_PASS -> Verdict.pass(Map.of("builtin", builtin.wireName()));
                case ALWAYS_FAIL -> Verdict.fail("builtin:always-fail never passes", null);
            };
        } catch (BuiltinConfig.Invalid e) {
            return Verdict.error(e.getMessage(), FailureCategory.PERMANENT);
        }
    }

    /**
     * Unlike the Go original: the upstream schedule defaults to the trait's own schedule (an hourly pipeline waits for the
     * same hour upstream), not to {@code daily}; the date is the execution date.
     */
    private Verdict upstreamRunLog(ResolvedTrait trait, BuiltinConfig config) throws BuiltinConfig.Invalid {
        String upstream = config.requireText("upstreamPipeline");
        Optional<RollupConfig> rollup = RollupConfig.of(trait.config());
        if (rollup.isPresent()) {
            return upstreamRollup(trait, config, upstream, rollup.get());
        }
        String schedule = config.text(PipelineConfig.UPSTREAM_SCHEDULE).orElse(trait.scheduleId());
        Optional<RunLog> log = provider.runLogs().get(new RunLogKey(upstream, trait.date(), schedule));
        if (log.isEmpty()) {
            return Verdict.fail("upstream " + upstream + " has no run log for " + trait.date() + "/" + schedule, null);
        }
        RunLog entry = log.get();
        if (entry.status() != RunLogStatus.COMPLETED) {
            return Verdict.fail(
                    "upstream " + upstream + " status is " + entry.status().wireName() + " for " + trait.date() + "/"
                            + schedule,
                    null);
        }
        Map<String, Object> value = new LinkedHashMap<>();
        if (entry.runId() != null) {
            value.put("upstreamRunId", entry.runId());
        }
        if (entry.completedAt() != null) {
            value.put("completedAt", InterlockJson.timestamp(entry.completedAt()));
        }
        return Verdict.pass(value);
    }

    /**
     * A rollup over an upstream: every window of the upstream on the execution date (of {@code upstreamSchedule}, else
     * of all its schedules) is a period, in when its run log is COMPLETED. One read per window.
     */
    private Verdict upstreamRollup(ResolvedTrait trait, BuiltinConfig config, String upstream, RollupConfig rollup) {
        Optional<String> schedule = config.text(PipelineConfig.UPSTREAM_SCHEDULE);
        Optional<PipelineConfig> upstreamConfig = provider.pipelines().get(upstream);
        if (upstreamConfig.isEmpty()) {
            return Verdict.fail("upstream " + upstream + " is not registered, so its windows are unknown", null);
        }
        List<String> periods = RollupPeriods.upstreamWindows(upstreamConfig.get(), schedule.orElse(null), trait.date());
        List<String> in = new ArrayList<>();
        Instant latest = null;
        for (String period : periods) {
            Optional<RunLog> log = provider.runLogs().get(new RunLogKey(upstream, trait.date(), period));
            if (log.isPresent() && log.get().status() == RunLogStatus.COMPLETED) {
                in.add(period);
                Instant completed = log.get().completedAt();
                if (completed != null && (latest == null || completed.isAfter(latest))) {
                    latest = completed;
                }
            }
        }
        RollupTally tally = RollupTally.count(periods, in, rollup);
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("upstreamPipeline", upstream);
        schedule.ifPresent(name -> value.put(PipelineConfig.UPSTREAM_SCHEDULE, name));
        value.put(RollupTally.VALUE_KEY, tally.toValue());
        if (latest != null) {
            // The latest completion is when the rollup's input last changed (quietPeriod reads it).
            value.put("completedAt", InterlockJson.timestamp(latest));
        }
        String what = "upstream " + upstream + " windows"
                + schedule.map(n -> " of " + n).orElse("") + " for " + trait.date() + ": " + tally.summary();
        if (periods.isEmpty()) {
            return Verdict.fail(
                    "upstream " + upstream + " has no window"
                            + schedule.map(n -> " of schedule " + n).orElse("") + " on " + trait.date(),
                    value);
        }
        return tally.complete() ? Verdict.pass(value, what) : Verdict.fail(what, value);
    }

    /**
     * The sensor value a sensor builtin reads: the partition its {@code partition} template names for the execution
     * being evaluated (so yesterday's partition never answers for today), else the unpartitioned value.
     */
    private SensorReading read(ResolvedTrait trait, BuiltinConfig config) throws BuiltinConfig.Invalid {
        String name = config.requireText("sensor");
        Optional<String> template = config.text(SensorPartition.CONFIG_KEY);
        if (template.isEmpty()) {
            return new SensorReading(name, null, provider.sensors().get(name, null));
        }
        return read(
                trait,
                name,
                template.get(),
                SensorPartition.expand(template.get(), trait.pipelineId(), trait.scheduleId(), trait.date()));
    }

    /** One partition of sensor {@code name}, which {@code template} expanded to for the trait's window. */
    private SensorReading read(ResolvedTrait trait, String name, String template, String partition)
            throws BuiltinConfig.Invalid {
        if (!SensorPartition.isValid(partition)) {
            throw new BuiltinConfig.Invalid("builtin config 'partition' " + template + " expands to '" + partition
                    + "' for " + trait.scheduleId() + " of " + trait.date() + ", which is not a partition");
        }
        return new SensorReading(name, partition, provider.sensors().get(name, partition));
    }

    /** Which sensor value was read, and what it holds. */
    private record SensorReading(String name, String partition, Optional<SensorValue> value) {
        String label() {
            return partition == null ? "sensor " + name : "sensor " + name + " partition " + partition;
        }

        /** The reading's identity in a verdict's value, so an operator sees which partition answered. */
        Map<String, Object> describe() {
            Map<String, Object> described = new LinkedHashMap<>();
            described.put("sensor", name);
            if (partition != null) {
                described.put(SensorPartition.CONFIG_KEY, partition);
            }
            return described;
        }
    }

    private Verdict sensorThreshold(ResolvedTrait trait, BuiltinConfig config) throws BuiltinConfig.Invalid {
        config.requireText("sensor");
        String field = config.requireText("field");
        Comparison op = Comparison.parse(config.requireText("op"));
        Object threshold = config.requireScalar("value");
        Optional<BigDecimal> numericThreshold = BuiltinConfig.number(threshold);
        if (op != Comparison.EQ && numericThreshold.isEmpty()) {
            throw new BuiltinConfig.Invalid("builtin:sensor-threshold config 'value' must be a number for op '"
                    + op.wire + "', got '" + threshold + "'");
        }
        return sensorCheck(trait, config, reading -> threshold(reading, field, op, threshold, numericThreshold));
    }

    private static Verdict threshold(
            SensorReading reading,
            String field,
            Comparison op,
            Object threshold,
            Optional<BigDecimal> numericThreshold) {
        Optional<SensorValue> sensor = reading.value();
        if (sensor.isEmpty()) {
            return Verdict.fail(reading.label() + " has no value", reading.describe());
        }
        Object actual = sensor.get().fields().get(field);
        Map<String, Object> value = reading.describe();
        value.put("field", field);
        value.put("op", op.wire);
        value.put("threshold", threshold);
        if (actual == null) {
            return Verdict.fail(reading.label() + " has no field '" + field + "'", value);
        }
        value.put("actual", actual);
        if (sensor.get().updatedAt() != null) {
            value.put("updatedAt", InterlockJson.timestamp(sensor.get().updatedAt()));
        }
        Optional<BigDecimal> numericActual = BuiltinConfig.number(actual);
        boolean holds;
        if (numericActual.isPresent() && numericThreshold.isPresent()) {
            holds = op.holds(numericActual.get().compareTo(numericThreshold.get()));
        } else if (op == Comparison.EQ) {
            // Non-numeric equality (e.g. complete eq true) compares the written forms.
            holds = String.valueOf(actual).equals(String.valueOf(threshold));
        } else {
            // The producer pushed something that is not a number: an operator must look, so not a plain FAIL.
            return Verdict.error(
                    reading.label() + " field '" + field + "' is '" + actual + "', not a number",
                    FailureCategory.PERMANENT);
        }
        return holds
                ? Verdict.pass(value)
                : Verdict.fail(
                        reading.label() + " field '" + field + "' is " + actual + ", not " + op.wire + " " + threshold,
                        value);
    }

    private Verdict sensorFreshness(ResolvedTrait trait, BuiltinConfig config) throws BuiltinConfig.Invalid {
        config.requireText("sensor");
        BigDecimal maxAge = config.requireNumber("maxAgeSeconds");
        if (maxAge.signum() <= 0) {
            throw new BuiltinConfig.Invalid(
                    "builtin:sensor-freshness config 'maxAgeSeconds' must be positive, got " + maxAge.toPlainString());
        }
        Instant now = clock.instant();
        return sensorCheck(trait, config, reading -> freshness(reading, maxAge, now));
    }

    private static Verdict freshness(SensorReading reading, BigDecimal maxAge, Instant now) {
        Optional<SensorValue> sensor = reading.value();
        if (sensor.isEmpty()) {
            return Verdict.fail(reading.label() + " has no value", reading.describe());
        }
        Instant updatedAt = sensor.get().updatedAt();
        if (updatedAt == null) {
            return Verdict.fail(reading.label() + " has no updatedAt", reading.describe());
        }
        Duration age = Duration.between(updatedAt, now);
        long ageSeconds = Math.max(0, age.toSeconds());
        Map<String, Object> value = reading.describe();
        value.put("updatedAt", InterlockJson.timestamp(updatedAt));
        value.put("ageSeconds", ageSeconds);
        value.put("maxAgeSeconds", maxAge);
        if (BigDecimal.valueOf(age.toMillis()).compareTo(maxAge.movePointRight(3)) <= 0) {
            return Verdict.pass(value);
        }
        return Verdict.stale(
                reading.label() + " was updated " + ageSeconds + " s ago, more than maxAgeSeconds "
                        + maxAge.toPlainString(),
                value);
    }

    /**
     * Applies a sensor builtin's {@code check} to the partition the trait reads or, for a rollup, to each hour's
     * partition ({@code ${hour}} = 00…23): a period is in when its partition passes the check. A check that errs on
     * one partition (a value that is not a number) is the rollup's answer: an operator must look.
     */
    private Verdict sensorCheck(ResolvedTrait trait, BuiltinConfig config, Function<SensorReading, Verdict> check)
            throws BuiltinConfig.Invalid {
        Optional<RollupConfig> rollup = RollupConfig.of(trait.config());
        if (rollup.isEmpty()) {
            return check.apply(read(trait, config));
        }
        String name = config.requireText("sensor");
        String template = config.requireText(SensorPartition.CONFIG_KEY);
        List<String> partitions =
                RollupPeriods.sensorPartitions(template, trait.pipelineId(), trait.scheduleId(), trait.date());
        List<String> in = new ArrayList<>();
        Instant latest = null;
        for (String partition : partitions) {
            SensorReading reading = read(trait, name, template, partition);
            Verdict verdict = check.apply(reading);
            if (verdict.status() == TraitStatus.ERROR) {
                return verdict;
            }
            if (verdict.status() == TraitStatus.PASS) {
                in.add(partition);
                Instant updated = reading.value().map(SensorValue::updatedAt).orElse(null);
                if (updated != null && (latest == null || updated.isAfter(latest))) {
                    latest = updated;
                }
            }
        }
        RollupTally tally = RollupTally.count(partitions, in, rollup.get());
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("sensor", name);
        value.put(RollupTally.VALUE_KEY, tally.toValue());
        if (latest != null) {
            // The latest write of a passing partition is when the rollup's input last changed (quietPeriod).
            value.put("updatedAt", InterlockJson.timestamp(latest));
        }
        String what = "sensor " + name + " partitions for " + trait.date() + ": " + tally.summary();
        return tally.complete() ? Verdict.pass(value, what) : Verdict.fail(what, value);
    }

    /** The comparisons {@code sensor-threshold} offers: actual {@code op} value. */
    private enum Comparison {
        GT("gt"),
        GTE("gte"),
        LT("lt"),
        LTE("lte"),
        EQ("eq");

        private final String wire;

        Comparison(String wire) {
            this.wire = wire;
        }

        static Comparison parse(String raw) throws BuiltinConfig.Invalid {
            String wanted = raw.trim().toLowerCase(Locale.ROOT);
            for (Comparison c : values()) {
                if (c.wire.equals(wanted)) {
                    return c;
                }
            }
            throw new BuiltinConfig.Invalid(
                    "builtin:sensor-threshold config 'op' must be one of gt, gte, lt, lte, eq; got '" + raw + "'");
        }

        /** Whether the comparison holds given {@code actual.compareTo(threshold)}. */
        boolean holds(int comparison) {
            return switch (this) {
                case GT -> comparison > 0;
                case GTE -> comparison >= 0;
                case LT -> comparison < 0;
                case LTE -> comparison <= 0;
                case EQ -> comparison == 0;
            };
        }
    }
}
