package dev.interlock.evaluation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.model.sensor.SensorValue;
import dev.interlock.model.trait.ResolvedTrait;
import dev.interlock.model.trait.TraitResult;
import dev.interlock.model.trait.TraitStatus;
import dev.interlock.store.RunLogKey;
import dev.interlock.store.contract.ManualClock;
import dev.interlock.store.memory.InMemoryProvider;
import dev.interlock.testing.Documents;
import dev.interlock.testing.TestTemplates;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The builtin evaluators on the in-memory store with a fixed clock. */
class BuiltinEvaluatorsTest {

    private static final LocalDate DATE = LocalDate.parse("2026-03-01");
    private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");

    private final ManualClock clock = new ManualClock(NOW);
    private final InMemoryProvider provider = new InMemoryProvider(clock);
    private final TraitEvaluation evaluation = new TraitEvaluation(
            provider, new HttpEvaluator(null, "", TestTemplates.none()), new LambdaEvaluator(() -> null), clock);

    private TraitResult evaluate(String schedule, String evaluator, Map<String, Object> config) {
        return evaluation.evaluate(new ResolvedTrait("gold", schedule, DATE, "check", evaluator, config, 10, 0, true));
    }

    private void upstreamLog(String pipeline, String schedule, RunLogStatus status) {
        provider.runLogs()
                .update(
                        new RunLogKey(pipeline, DATE, schedule),
                        current -> new RunLog(
                                pipeline,
                                DATE,
                                schedule,
                                status,
                                1,
                                "run-7",
                                "exec-7",
                                null,
                                null,
                                List.of(),
                                false,
                                NOW.minusSeconds(600),
                                status == RunLogStatus.COMPLETED ? NOW.minusSeconds(60) : null,
                                NOW));
    }

    // ---- upstream-run-log ----

    @Test
    void upstreamRunLogPassesWhenTheUpstreamCompletedTheSameSchedule() {
        upstreamLog("silver", "h05", RunLogStatus.COMPLETED);

        TraitResult result = evaluate("h05", "builtin:upstream-run-log", Map.of("upstreamPipeline", "silver"));

        assertThat(result.status()).isEqualTo(TraitStatus.PASS);
        assertThat(result.value())
                .isEqualTo(Map.of("upstreamRunId", "run-7", "completedAt", "2026-03-01T09:59:00.000Z"));
    }

    @Test
    void upstreamScheduleDefaultsToTheTraitsOwnScheduleNotDaily() {
        upstreamLog("silver", "daily", RunLogStatus.COMPLETED);

        TraitResult result = evaluate("h05", "builtin:upstream-run-log", Map.of("upstreamPipeline", "silver"));

        assertThat(result.status()).isEqualTo(TraitStatus.FAIL);
        assertThat(result.reason()).isEqualTo("upstream silver has no run log for 2026-03-01/h05");
    }

    @Test
    void upstreamScheduleCanBeNamed() {
        upstreamLog("silver", "daily", RunLogStatus.COMPLETED);

        TraitResult result = evaluate(
                "h05", "builtin:upstream-run-log", Map.of("upstreamPipeline", "silver", "upstreamSchedule", "daily"));

        assertThat(result.status()).isEqualTo(TraitStatus.PASS);
    }

    @Test
    void anUpstreamThatHasNotCompletedFails() {
        upstreamLog("silver", "daily", RunLogStatus.RUNNING);

        TraitResult result = evaluate("daily", "builtin:upstream-run-log", Map.of("upstreamPipeline", "silver"));

        assertThat(result.status()).isEqualTo(TraitStatus.FAIL);
        assertThat(result.reason()).isEqualTo("upstream silver status is RUNNING for 2026-03-01/daily");
        assertThat(result.failureCategory()).isNull();
    }

    @Test
    void upstreamRunLogWithoutUpstreamPipelineIsAPermanentErrorNamingTheKey() {
        TraitResult result = evaluate("daily", "builtin:upstream-run-log", Map.of("date", "2026-03-01"));

        assertThat(result.status()).isEqualTo(TraitStatus.ERROR);
        assertThat(result.failureCategory()).isEqualTo(FailureCategory.PERMANENT);
        assertThat(result.reason()).isEqualTo("builtin:upstream-run-log config missing: upstreamPipeline");
    }

    // ---- sensor-threshold ----

    private Map<String, Object> threshold(String op, Object value) {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("sensor", "orders-count");
        config.put("field", "count");
        config.put("op", op);
        config.put("value", value);
        return config;
    }

    @ParameterizedTest(name = "count 1500 {0} {1} → {2}")
    @CsvSource({
        "gt,1500,FAIL",
        "gt,1499,PASS",
        "gte,1500,PASS",
        "gte,1501,FAIL",
        "lt,1501,PASS",
        "lt,1500,FAIL",
        "lte,1500,PASS",
        "lte,1499.5,FAIL",
        "eq,1500,PASS",
        "eq,1500.0,PASS",
        "EQ,1501,FAIL"
    })
    void sensorThresholdComparesNumerically(String op, String value, TraitStatus expected) {
        provider.sensors().write(new SensorValue("orders-count", Map.of("count", 1500), NOW.minusSeconds(30)));

        TraitResult result = evaluate("daily", "builtin:sensor-threshold", threshold(op, value));

        assertThat(result.status()).isEqualTo(expected);
    }

    @Test
    void aFailedThresholdSaysWhyAndKeepsTheReading() {
        provider.sensors().write(new SensorValue("orders-count", Map.of("count", 1200), NOW.minusSeconds(30)));

        TraitResult result = evaluate("daily", "builtin:sensor-threshold", threshold("gte", 1500));

        assertThat(result.status()).isEqualTo(TraitStatus.FAIL);
        assertThat(result.reason()).isEqualTo("sensor orders-count field 'count' is 1200, not gte 1500");
        assertThat(result.value())
                .containsEntry("actual", 1200)
                .containsEntry("threshold", 1500)
                .containsEntry("updatedAt", "2026-03-01T09:59:30.000Z");
    }

    @Test
    void eqComparesNonNumericValuesByTheirWrittenForm() {
        provider.sensors().write(new SensorValue("orders-count", Map.of("complete", true), NOW));
        Map<String, Object> config = new LinkedHashMap<>(threshold("eq", true));
        config.put("field", "complete");

        assertThat(evaluate("daily", "builtin:sensor-threshold", config).status())
                .isEqualTo(TraitStatus.PASS);
        config.put("value", "false");
        assertThat(evaluate("daily", "builtin:sensor-threshold", config).status())
                .isEqualTo(TraitStatus.FAIL);
    }

    @Test
    void aMissingSensorOrFieldIsNotReadyYet() {
        TraitResult noSensor = evaluate("daily", "builtin:sensor-threshold", threshold("gte", 1));
        provider.sensors().write(new SensorValue("orders-count", Map.of("rows", 5), NOW));
        TraitResult noField = evaluate("daily", "builtin:sensor-threshold", threshold("gte", 1));

        assertThat(noSensor.status()).isEqualTo(TraitStatus.FAIL);
        assertThat(noSensor.reason()).isEqualTo("sensor orders-count has no value");
        assertThat(noField.status()).isEqualTo(TraitStatus.FAIL);
        assertThat(noField.reason()).isEqualTo("sensor orders-count has no field 'count'");
    }

    @Test
    void aNonNumericReadingForAnOrderingOpIsAnError() {
        provider.sensors().write(new SensorValue("orders-count", Map.of("count", "lots"), NOW));

        TraitResult result = evaluate("daily", "builtin:sensor-threshold", threshold("gt", 1));

        assertThat(result.status()).isEqualTo(TraitStatus.ERROR);
        assertThat(result.failureCategory()).isEqualTo(FailureCategory.PERMANENT);
        assertThat(result.reason()).isEqualTo("sensor orders-count field 'count' is 'lots', not a number");
    }

    @Test
    void badThresholdConfigIsAPermanentErrorNamingTheKey() {
        Map<String, Object> noOp = new LinkedHashMap<>(threshold("gt", 1));
        noOp.remove("op");
        Map<String, Object> noValue = new LinkedHashMap<>(threshold("gt", 1));
        noValue.remove("value");

        assertThat(evaluate("daily", "builtin:sensor-threshold", noOp).reason())
                .isEqualTo("builtin:sensor-threshold config missing: op");
        assertThat(evaluate("daily", "builtin:sensor-threshold", noValue).reason())
                .isEqualTo("builtin:sensor-threshold config missing: value");
        assertThat(evaluate("daily", "builtin:sensor-threshold", threshold("between", 1))
                        .reason())
                .isEqualTo("builtin:sensor-threshold config 'op' must be one of gt, gte, lt, lte, eq; got 'between'");
        TraitResult notNumber = evaluate("daily", "builtin:sensor-threshold", threshold("gt", "many"));
        assertThat(notNumber.status()).isEqualTo(TraitStatus.ERROR);
        assertThat(notNumber.failureCategory()).isEqualTo(FailureCategory.PERMANENT);
        assertThat(notNumber.reason())
                .isEqualTo("builtin:sensor-threshold config 'value' must be a number for op 'gt', got 'many'");
    }

    // ---- partitions ----

    private Map<String, Object> completeIn(String partition) {
        Map<String, Object> config = new LinkedHashMap<>(threshold("eq", true));
        config.put("field", "complete");
        config.put("partition", partition);
        return config;
    }

    @Test
    void yesterdaysCompletePartitionNeverAnswersForToday() {
        provider.sensors()
                .write(new SensorValue("orders-count", DATE.minusDays(1).toString(), Map.of("complete", true), NOW, 0));
        provider.sensors().write(new SensorValue("orders-count", Map.of("complete", true), NOW));

        TraitResult today = evaluate("daily", "builtin:sensor-threshold", completeIn("${date}"));

        assertThat(today.status()).isEqualTo(TraitStatus.FAIL);
        assertThat(today.reason()).isEqualTo("sensor orders-count partition 2026-03-01 has no value");
        assertThat(today.value()).isEqualTo(Map.of("sensor", "orders-count", "partition", "2026-03-01"));
    }

    @Test
    void anHourlyTemplateReadsTheHourOfItsSchedule() {
        provider.sensors().write(new SensorValue("orders-count", "2026-03-01T06", Map.of("complete", true), NOW, 0));

        TraitResult h06 = evaluate("h06", "builtin:sensor-threshold", completeIn("${date}T${hour}"));
        TraitResult h07 = evaluate("h07", "builtin:sensor-threshold", completeIn("${date}T${hour}"));
        TraitResult bySchedule = evaluate("h06", "builtin:sensor-threshold", completeIn("${scheduleId}"));

        assertThat(h06.status()).isEqualTo(TraitStatus.PASS);
        assertThat(h06.value()).containsEntry("partition", "2026-03-01T06");
        assertThat(h07.status()).isEqualTo(TraitStatus.FAIL);
        assertThat(h07.reason()).isEqualTo("sensor orders-count partition 2026-03-01T07 has no value");
        assertThat(bySchedule.reason()).isEqualTo("sensor orders-count partition h06 has no value");
    }

    @Test
    void freshnessReadsThePartitionToo() {
        provider.sensors()
                .write(new SensorValue("orders-landed", "2026-03-01", Map.of("files", 3), NOW.minusSeconds(60), 0));
        provider.sensors()
                .write(new SensorValue("orders-landed", "2026-02-28", Map.of("files", 3), NOW.minusSeconds(86_400), 0));

        TraitResult today = evaluate(
                "daily",
                "builtin:sensor-freshness",
                Map.of("sensor", "orders-landed", "maxAgeSeconds", 600, "partition", "${date}"));

        assertThat(today.status()).isEqualTo(TraitStatus.PASS);
        assertThat(today.value()).containsEntry("partition", "2026-03-01").containsEntry("ageSeconds", 60L);
    }

    @Test
    void aTemplateThatExpandsToNoPartitionIsAPermanentError() {
        TraitResult result = evaluate("daily", "builtin:sensor-threshold", completeIn("${date}/x"));

        assertThat(result.status()).isEqualTo(TraitStatus.ERROR);
        assertThat(result.failureCategory()).isEqualTo(FailureCategory.PERMANENT);
        assertThat(result.reason()).contains("'2026-03-01/x'").contains("not a partition");
    }

    // ---- rollups ----

    private static String hour(int h) {
        return "hourly.%02d00".formatted(h);
    }

    private void registerHourlyUpstream() {
        provider.pipelines().put(Documents.read("""
                name: silver
                archetype: batch-ingestion
                trigger: {type: http, url: "https://jobs.example.com/silver"}
                schedules: [{name: hourly, cron: "0 * * * *", timezone: UTC}]
                """, PipelineConfig.class));
    }

    /** Every hour of the upstream's day COMPLETED but {@code late}; those RUNNING. */
    private void upstreamHoursBut(int... late) {
        for (int h = 0; h < 24; h++) {
            int hour = h;
            boolean isLate = IntStream.of(late).anyMatch(l -> l == hour);
            upstreamLog("silver", hour(h), isLate ? RunLogStatus.RUNNING : RunLogStatus.COMPLETED);
        }
    }

    private TraitResult rollUp(Object rollup) {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("upstreamPipeline", "silver");
        config.put("rollup", rollup);
        return evaluate("daily", "builtin:upstream-run-log", config);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> tally(TraitResult result) {
        return (Map<String, Object>) result.value().get("rollup");
    }

    @Test
    void anUpstreamRollupWithOneHourMissingFailsNamingIt() {
        registerHourlyUpstream();
        upstreamHoursBut(5);

        TraitResult result = rollUp(true);

        assertThat(result.status()).isEqualTo(TraitStatus.FAIL);
        assertThat(result.failureCategory()).isNull();
        assertThat(result.reason())
                .isEqualTo("upstream silver windows for 2026-03-01: 23 of 24 in; missing hourly.0500")
                .contains("23 of 24 in; missing hourly.0500");
        assertThat(tally(result))
                .containsEntry("periods", 24)
                .containsEntry("in", 23)
                .containsEntry("missing", List.of("hourly.0500"))
                .containsEntry("needed", 24)
                .containsEntry("enough", false);
        assertThat(result.value())
                .containsEntry("upstreamPipeline", "silver")
                .containsEntry("completedAt", "2026-03-01T09:59:00.000Z");
    }

    @Test
    void anUpstreamRollupPassesOnceEveryHourCompleted() {
        registerHourlyUpstream();
        upstreamHoursBut();

        TraitResult result = rollUp(Map.of());

        assertThat(result.status()).isEqualTo(TraitStatus.PASS);
        assertThat(tally(result))
                .containsEntry("in", 24)
                .containsEntry("missing", List.of())
                .containsEntry("enough", true);
    }

    @Test
    void aRollupReadsOnlyTheUpstreamsWindowsOfItsOwnDate() {
        registerHourlyUpstream();
        // The same hours of the day before, and a window id the upstream does not have, do not count.
        for (int h = 0; h < 24; h++) {
            RunLogKey key = new RunLogKey("silver", DATE.minusDays(1), hour(h));
            provider.runLogs()
                    .update(
                            key,
                            current -> new RunLog(
                                    "silver",
                                    key.date(),
                                    key.scheduleId(),
                                    RunLogStatus.COMPLETED,
                                    1,
                                    "run-y",
                                    "exec-y",
                                    null,
                                    null,
                                    List.of(),
                                    false,
                                    NOW,
                                    NOW,
                                    NOW));
        }
        upstreamLog("silver", "daily", RunLogStatus.COMPLETED);

        TraitResult result = rollUp(true);

        assertThat(result.status()).isEqualTo(TraitStatus.FAIL);
        assertThat(tally(result)).containsEntry("in", 0).containsEntry("periods", 24);
        assertThat(result.reason())
                .endsWith("0 of 24 in; missing hourly.0000, hourly.0100, hourly.0200, hourly.0300, "
                        + "hourly.0400, hourly.0500, hourly.0600, hourly.0700, hourly.0800, hourly.0900, hourly.1000, "
                        + "hourly.1100, hourly.1200, hourly.1300, hourly.1400, hourly.1500, hourly.1600, hourly.1700, "
                        + "hourly.1800, hourly.1900, hourly.2000, hourly.2100, hourly.2200, hourly.2300");
    }

    @Test
    void aRollupOverAnUnregisteredUpstreamFails() {
        upstreamHoursBut();

        TraitResult result = rollUp(true);

        assertThat(result.status()).isEqualTo(TraitStatus.FAIL);
        assertThat(result.reason()).isEqualTo("upstream silver is not registered, so its windows are unknown");
    }

    @Test
    void aRollupOverAScheduleTheUpstreamDoesNotHaveFails() {
        registerHourlyUpstream();
        upstreamHoursBut();
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("upstreamPipeline", "silver");
        config.put("upstreamSchedule", "quarterly");
        config.put("rollup", true);

        TraitResult result = evaluate("daily", "builtin:upstream-run-log", config);

        assertThat(result.status()).isEqualTo(TraitStatus.FAIL);
        assertThat(result.reason()).isEqualTo("upstream silver has no window of schedule quarterly on 2026-03-01");
    }

    @Test
    void withMinCountEnoughHoursStillFailButSayTheyWillDo() {
        registerHourlyUpstream();
        upstreamHoursBut(5);

        TraitResult result = rollUp(Map.of("minCount", 20));

        assertThat(result.status())
                .as("the readiness decision lets it do, not the evaluator")
                .isEqualTo(TraitStatus.FAIL);
        assertThat(result.reason()).endsWith("23 of 24 in; missing hourly.0500 (20 will do)");
        assertThat(tally(result)).containsEntry("needed", 20).containsEntry("enough", true);
        assertThat(rollUp(Map.of("minCount", 20, "onUpstreamRerun", "ignore")).status())
                .isEqualTo(TraitStatus.FAIL);
    }

    @Test
    void withMinCountTooFewHoursAreNotEnough() {
        registerHourlyUpstream();
        upstreamHoursBut(1, 2, 3, 4, 5);

        assertThat(tally(rollUp(Map.of("minCount", 20))))
                .containsEntry("in", 19)
                .containsEntry("enough", false);
    }

    private Map<String, Object> hourlyCompleteRollup() {
        Map<String, Object> config = completeIn("${date}T${hour}");
        config.put("rollup", true);
        return config;
    }

    private void hourPartition(int h, Map<String, Object> fields) {
        provider.sensors()
                .write(new SensorValue("orders-count", "2026-03-01T%02d".formatted(h), fields, NOW.minusSeconds(h), 0));
    }

    @Test
    void aSensorRollupPassesWhenEveryHoursPartitionPasses() {
        for (int h = 0; h < 24; h++) {
            hourPartition(h, Map.of("complete", true));
        }

        TraitResult result = evaluate("daily", "builtin:sensor-threshold", hourlyCompleteRollup());

        assertThat(result.status()).isEqualTo(TraitStatus.PASS);
        assertThat(tally(result)).containsEntry("periods", 24).containsEntry("in", 24);
        assertThat(result.value())
                .containsEntry("sensor", "orders-count")
                .as("the latest write of a passing partition")
                .containsEntry("updatedAt", "2026-03-01T10:00:00.000Z");
    }

    @Test
    void aSensorRollupFailsNamingTheMissingOrFailingPartitions() {
        for (int h = 0; h < 24; h++) {
            if (h != 17) {
                hourPartition(h, Map.of("complete", h != 3));
            }
        }

        TraitResult result = evaluate("daily", "builtin:sensor-threshold", hourlyCompleteRollup());

        assertThat(result.status()).isEqualTo(TraitStatus.FAIL);
        assertThat(result.reason())
                .isEqualTo("sensor orders-count partitions for 2026-03-01: 22 of 24 in; missing 2026-03-01T03, "
                        + "2026-03-01T17");
        assertThat(tally(result)).containsEntry("missing", List.of("2026-03-01T03", "2026-03-01T17"));
    }

    @Test
    void aSensorRollupWithOnePartitionMissingFailsNamingIt() {
        for (int h = 0; h < 24; h++) {
            if (h != 17) {
                hourPartition(h, Map.of("complete", true));
            }
        }
        // The unpartitioned value does not stand in for an hour.
        provider.sensors().write(new SensorValue("orders-count", Map.of("complete", true), NOW));

        TraitResult result = evaluate("daily", "builtin:sensor-threshold", hourlyCompleteRollup());

        assertThat(result.status()).isEqualTo(TraitStatus.FAIL);
        assertThat(result.reason()).endsWith("23 of 24 in; missing 2026-03-01T17");
    }

    @Test
    void aPartitionThatIsNotANumberForAnOrderingOpIsAPermanentError() {
        for (int h = 0; h < 24; h++) {
            hourPartition(h, Map.of("count", h == 9 ? "lots" : 1500));
        }
        Map<String, Object> config = threshold("gte", 1000);
        config.put("partition", "${date}T${hour}");
        config.put("rollup", true);

        TraitResult result = evaluate("daily", "builtin:sensor-threshold", config);

        assertThat(result.status()).isEqualTo(TraitStatus.ERROR);
        assertThat(result.failureCategory()).isEqualTo(FailureCategory.PERMANENT);
        assertThat(result.reason())
                .isEqualTo("sensor orders-count partition 2026-03-01T09 field 'count' is 'lots', not a number");
    }

    @Test
    void aSensorFreshnessRollupCountsTheHoursWrittenWithinMaxAge() {
        for (int h = 0; h < 24; h++) {
            if (h != 2) {
                hourPartition(h, Map.of("files", 1));
            }
        }

        TraitResult result = evaluate(
                "daily",
                "builtin:sensor-freshness",
                Map.of(
                        "sensor",
                        "orders-count",
                        "maxAgeSeconds",
                        3600,
                        "partition",
                        "${date}T${hour}",
                        "rollup",
                        Map.of("minCount", 23)));

        assertThat(result.status()).isEqualTo(TraitStatus.FAIL);
        assertThat(result.reason()).endsWith("23 of 24 in; missing 2026-03-01T02 (23 will do)");
        assertThat(tally(result)).containsEntry("enough", true);
    }

    // ---- sensor-freshness ----

    @Test
    void sensorFreshnessPassesWithinMaxAgeAndIsStaleAfter() {
        provider.sensors().write(new SensorValue("orders-landed", Map.of("files", 3), NOW.minusSeconds(600)));

        TraitResult fresh =
                evaluate("daily", "builtin:sensor-freshness", Map.of("sensor", "orders-landed", "maxAgeSeconds", 600));
        clock.advance(Duration.ofSeconds(1));
        TraitResult stale = evaluate(
                "daily", "builtin:sensor-freshness", Map.of("sensor", "orders-landed", "maxAgeSeconds", "600"));

        assertThat(fresh.status()).isEqualTo(TraitStatus.PASS);
        assertThat(fresh.value())
                .containsEntry("ageSeconds", 600L)
                .containsEntry("updatedAt", "2026-03-01T09:50:00.000Z");
        assertThat(stale.status()).isEqualTo(TraitStatus.STALE);
        assertThat(stale.reason()).isEqualTo("sensor orders-landed was updated 601 s ago, more than maxAgeSeconds 600");
    }

    @Test
    void sensorFreshnessWithoutSensorValueFailsAndWithoutMaxAgeIsAnError() {
        TraitResult absent =
                evaluate("daily", "builtin:sensor-freshness", Map.of("sensor", "nothing", "maxAgeSeconds", 60));
        TraitResult noMaxAge = evaluate("daily", "builtin:sensor-freshness", Map.of("sensor", "nothing"));
        TraitResult negative =
                evaluate("daily", "builtin:sensor-freshness", Map.of("sensor", "nothing", "maxAgeSeconds", -5));

        assertThat(absent.status()).isEqualTo(TraitStatus.FAIL);
        assertThat(absent.reason()).isEqualTo("sensor nothing has no value");
        assertThat(noMaxAge.status()).isEqualTo(TraitStatus.ERROR);
        assertThat(noMaxAge.reason()).isEqualTo("builtin:sensor-freshness config missing: maxAgeSeconds");
        assertThat(negative.reason())
                .isEqualTo("builtin:sensor-freshness config 'maxAgeSeconds' must be positive, got -5");
    }

    // ---- always-*, unknown ----

    @Test
    void alwaysPassAndAlwaysFail() {
        assertThat(evaluate("daily", "builtin:always-pass", Map.of()).status()).isEqualTo(TraitStatus.PASS);
        TraitResult fail = evaluate("daily", "builtin:always-fail", Map.of());
        assertThat(fail.status()).isEqualTo(TraitStatus.FAIL);
        assertThat(fail.reason()).isEqualTo("builtin:always-fail never passes");
    }

    @Test
    void anUnknownBuiltinIsAPermanentError() {
        TraitResult result = evaluate("daily", "builtin:coin-flip", Map.of());

        assertThat(result.status()).isEqualTo(TraitStatus.ERROR);
        assertThat(result.failureCategory()).isEqualTo(FailureCategory.PERMANENT);
        assertThat(result.reason())
                .isEqualTo("unknown builtin evaluator 'coin-flip'; allowed: upstream-run-log, "
                        + "sensor-threshold, sensor-freshness, lineage-complete, always-pass, always-fail");
    }

    @Test
    void anEmptyEvaluatorIsAPermanentError() {
        TraitResult result = evaluate("daily", "", Map.of());

        assertThat(result.status()).isEqualTo(TraitStatus.ERROR);
        assertThat(result.failureCategory()).isEqualTo(FailureCategory.PERMANENT);
        assertThat(result.reason()).startsWith("evaluator is empty");
    }
}
