package dev.interlock.evaluation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.lineage.LineageRunEvent;
import dev.interlock.model.lineage.LineageSubject;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.sensor.SensorValue;
import dev.interlock.model.trait.ResolvedTrait;
import dev.interlock.model.trait.TraitResult;
import dev.interlock.model.trait.TraitStatus;
import dev.interlock.store.contract.ManualClock;
import dev.interlock.store.memory.InMemoryProvider;
import dev.interlock.testing.TestTemplates;
import java.time.Instant;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code builtin:lineage-complete} on the in-memory store: it reads what {@code POST /lineage} keeps. */
class LineageCompleteEvaluatorTest {

    private static final LocalDate DATE = LocalDate.parse("2026-03-01");
    private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");
    private static final String NS = "dbt://analytics";
    private static final String MODEL = "jaffle_shop.model.jaffle_shop.orders";
    private static final String RUN = "0193a2e4-7c1d-7f00-8d3e-5b9f2a6c4e11";

    private final ManualClock clock = new ManualClock(NOW);
    private final InMemoryProvider provider = new InMemoryProvider(clock);
    private final TraitEvaluation evaluation = new TraitEvaluation(
            provider, new HttpEvaluator(null, "", TestTemplates.none()), new LambdaEvaluator(() -> null), clock);

    private TraitResult evaluate(Map<String, Object> config) {
        return evaluation.evaluate(new ResolvedTrait(
                "gold", "daily", DATE, "upstream-dependency", "builtin:lineage-complete", config, 10, 0, true));
    }

    /** Stores a COMPLETE as the route does: on the job's and each output's reserved sensor, for the event's day. */
    private void complete(String eventTime, String job) {
        LineageRunEvent event = LineageRunEvent.parse(InterlockJson.tree(Map.of(
                        "eventType",
                        "COMPLETE",
                        "eventTime",
                        eventTime,
                        "producer",
                        "https://github.com/OpenLineage/OpenLineage/tree/1.24.2/integration/dbt",
                        "run",
                        Map.of("runId", RUN),
                        "job",
                        Map.of("namespace", NS, "name", job),
                        "outputs",
                        java.util.List.of(Map.of("namespace", "postgres://wh:5432", "name", "marts.orders")))))
                .event();
        for (LineageSubject subject : java.util.stream.Stream.concat(
                        java.util.stream.Stream.of(event.job()), event.outputs().stream())
                .toList()) {
            provider.sensors()
                    .write(new SensorValue(subject.sensorName(), event.day().toString(), event.storedFields(), NOW, 0));
        }
    }

    private static Map<String, Object> job() {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("namespace", NS);
        config.put("job", MODEL);
        return config;
    }

    @Test
    void notReadyUntilTheJobsCompleteOfTheDayArrived() {
        TraitResult before = evaluate(job());
        complete("2026-03-01T05:12:33.123456+00:00", MODEL);
        TraitResult after = evaluate(job());

        assertThat(before.status()).isEqualTo(TraitStatus.FAIL);
        assertThat(before.reason())
                .isEqualTo("no OpenLineage COMPLETE event of job dbt://analytics/" + MODEL + " for 2026-03-01");
        assertThat(after.status()).isEqualTo(TraitStatus.PASS);
        assertThat(after.value())
                .containsEntry("runId", RUN)
                .containsEntry("partition", "2026-03-01")
                .containsEntry("job", MODEL);
    }

    @Test
    void yesterdaysCompleteNeverAnswersForTodayAndATemplateCanAskForIt() {
        complete("2026-02-28T23:50:00Z", MODEL);

        Map<String, Object> yesterday = job();
        yesterday.put("partition", "2026-02-28");

        assertThat(evaluate(job()).status()).isEqualTo(TraitStatus.FAIL);
        assertThat(evaluate(yesterday).status()).isEqualTo(TraitStatus.PASS);
    }

    @Test
    void anEventIsForTheDayOfItsOwnOffset() {
        // 23:30 in New York on 2026-03-01 is 04:30 UTC on 2026-03-02: the event says which day it is for.
        complete("2026-03-01T23:30:00-05:00", MODEL);
        assertThat(evaluate(job()).status()).isEqualTo(TraitStatus.PASS);
    }

    @Test
    void aDatasetGateWaitsForARunThatWroteItAndWithAJobForThatJobsRun() {
        Map<String, Object> dataset = new LinkedHashMap<>();
        dataset.put("datasetNamespace", "postgres://wh:5432");
        dataset.put("dataset", "marts.orders");
        Map<String, Object> both = new LinkedHashMap<>(dataset);
        both.put("namespace", NS);
        both.put("job", "jaffle_shop.model.jaffle_shop.other");

        complete("2026-03-01T05:00:00Z", MODEL);

        assertThat(evaluate(dataset).status()).isEqualTo(TraitStatus.PASS);
        TraitResult wrongJob = evaluate(both);
        assertThat(wrongJob.status()).isEqualTo(TraitStatus.FAIL);
        assertThat(wrongJob.reason()).contains("last completed by job " + NS + "/" + MODEL);
    }

    @Test
    void aConfigWithoutJobOrDatasetIsAPermanentErrorNamingTheKey() {
        TraitResult result = evaluate(Map.of("namespace", NS));
        assertThat(result.status()).isEqualTo(TraitStatus.ERROR);
        assertThat(result.failureCategory()).isEqualTo(FailureCategory.PERMANENT);
        assertThat(result.reason()).contains("config.job");
    }
}
