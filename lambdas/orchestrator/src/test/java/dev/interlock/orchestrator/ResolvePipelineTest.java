package dev.interlock.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.testing.Documents;
import org.junit.jupiter.api.Test;

class ResolvePipelineTest {

    private final Fixture f = new Fixture();

    @Test
    void resolvesTraitsTriggerTuningAndANewPendingRun() {
        f.register(
                "orders",
                "traits:\n  source-freshness:\n    evaluator: builtin:sensor-freshness\n    config: {sensor: orders-src, maxAgeSeconds: 60}\n"
                        + "  schema-contract:\n    evaluator: http://checks.example.com/schema\n");

        JsonNode response = f.call(f.request(OrchestratorAction.RESOLVE_PIPELINE));

        assertThat(response.get("result").asText()).isEqualTo("proceed");
        JsonNode p = response.get("payload");
        String runId = p.get("runId").asText();
        assertThat(runId).matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
        assertThat(p.get("traits")).hasSize(4);
        JsonNode freshness = p.get("traits").get(0);
        assertThat(freshness.get("traitType").asText()).isEqualTo("source-freshness");
        assertThat(freshness.get("pipelineId").asText()).isEqualTo("orders");
        assertThat(freshness.get("scheduleId").asText()).isEqualTo("daily");
        assertThat(freshness.get("date").asText()).isEqualTo("2026-03-02");
        assertThat(freshness.get("evaluator").asText()).isEqualTo("builtin:sensor-freshness");
        assertThat(freshness.get("config").get("maxAgeSeconds").asInt()).isEqualTo(60);
        assertThat(freshness.get("config").get("maxLagSeconds").asInt()).isEqualTo(300);
        assertThat(freshness.get("config").get("date").asText()).isEqualTo("2026-03-02");
        assertThat(freshness.get("config").get("scheduleId").asText()).isEqualTo("daily");
        assertThat(freshness.get("timeout").asInt()).isEqualTo(30);
        assertThat(freshness.get("ttl").asInt()).isEqualTo(300);
        assertThat(freshness.get("required").asBoolean()).isTrue();
        assertThat(p.get("traits").get(1).get("evaluator").asText()).isEmpty();
        assertThat(p.get("traits").get(3).get("traitType").asText()).isEqualTo("schema-contract");
        assertThat(p.get("traits").get(3).get("required").asBoolean()).isFalse();
        assertThat(p.get("trigger").get("type").asText()).isEqualTo("http");
        assertThat(p.get("trigger").get("url").asText()).isEqualTo("https://jobs.example.com/run");
        assertThat(p.get("triggerType").asText()).isEqualTo("http");
        assertThat(p.get("triggerHeaders").isObject()).isTrue();
        assertThat(p.get("triggerHeaders").size()).isZero();
        assertThat(p.get("evaluationIntervalSeconds").asInt()).isEqualTo(60);
        assertThat(p.get("pollIntervalSeconds").asInt()).isEqualTo(30);
        assertThat(p.get("pollLimit").asInt()).isEqualTo(120);
        assertThat(p.get("monitoring").get("enabled").asBoolean()).isFalse();
        assertThat(p.get("monitoring").get("intervalSeconds").asInt()).isEqualTo(300);
        assertThat(p.get("monitoring").get("durationSeconds").asLong()).isZero();
        assertThat(p.get("retry").get("maxAttempts").asInt()).isEqualTo(3);
        assertThat(p.get("retry").get("backoffSeconds").asInt()).isEqualTo(30);
        assertThat(p.get("retry").get("backoffMultiplier").asDouble()).isEqualTo(2.0);
        assertThat(p.get("retry").get("retryableFailures").toString()).isEqualTo("[\"TRANSIENT\",\"TIMEOUT\"]");
        assertThat(p.get("dryRun").asBoolean()).isFalse();

        RunState run = f.provider.runs().get(runId).orElseThrow();
        assertThat(run.status()).isEqualTo(RunStatus.PENDING);
        assertThat(run.version()).isEqualTo(1);
        assertThat(run.executionName()).isEqualTo(Fixture.EXECUTION);
        assertThat(f.events(EventKind.RUN_STATE_CHANGED))
                .extracting(e -> e.status())
                .containsExactly("PENDING");
    }

    @Test
    void passesTheTriggerAsRegisteredSoItIsRenderedOnceAtCallTime() {
        f.register("orders", "");
        f.provider.pipelines().put(Documents.read("""
                name: orders
                archetype: batch-ingestion
                trigger:
                  type: glue
                  jobName: load-orders
                  arguments: {--date: '${date}', --run: '${runId}', --hour: 'h${hour}', --schedule: '${scheduleId}'}
                """, dev.interlock.model.pipeline.PipelineConfig.class));
        var request = f.request(OrchestratorAction.RESOLVE_PIPELINE);
        request.put("scheduleId", "h07");

        JsonNode p = f.call(request).get("payload");

        // The trigger renders the templates with the run's values (a second rendering would turn $${ into ${).
        JsonNode arguments = p.get("trigger").get("arguments");
        assertThat(arguments.get("--date").asText()).isEqualTo("${date}");
        assertThat(arguments.get("--run").asText()).isEqualTo("${runId}");
        assertThat(arguments.get("--hour").asText()).isEqualTo("h${hour}");
        assertThat(p.get("triggerType").asText()).isEqualTo("glue");
    }

    @Test
    void triggerHeadersAreTheTemplatesSoSecretsStayOutOfTheHistory() {
        f.register("orders", "");
        f.provider.pipelines().put(Documents.read("""
                name: orders
                archetype: batch-ingestion
                trigger:
                  type: airflow
                  url: https://airflow.example.com
                  dagId: orders
                  headers: {Authorization: 'Bearer ${INTERLOCK_AIRFLOW_TOKEN}'}
                """, dev.interlock.model.pipeline.PipelineConfig.class));

        JsonNode p = f.call(f.request(OrchestratorAction.RESOLVE_PIPELINE)).get("payload");

        assertThat(p.get("triggerHeaders").get("Authorization").asText())
                .isEqualTo("Bearer ${INTERLOCK_AIRFLOW_TOKEN}");
    }

    @Test
    void aRepeatedCallForTheSameAttemptFindsTheSameRun() {
        f.register("");

        String first = f.resolve();
        String second = f.resolve();

        assertThat(second).isEqualTo(first);
        assertThat(f.events(EventKind.RUN_STATE_CHANGED)).hasSize(1);
    }

    @Test
    void theNextAttemptOfTheSameExecutionGetsANewRun() {
        f.register("");
        String first = f.resolve();
        f.call(f.request(
                OrchestratorAction.LOG_RESULT,
                first,
                java.util.Map.of("status", "FAILED", "failureCategory", "TRANSIENT")));

        String second = f.resolve();

        assertThat(second).isNotEqualTo(first);
    }

    /** The run as a trigger leaves it after starting an async job: TRIGGERING, then RUNNING with the job's id. */
    private RunState started(String runId, RunStatus status) {
        RunState run = f.provider.runs().get(runId).orElseThrow();
        RunState triggering = run.moveTo(RunStatus.TRIGGERING, Fixture.T0);
        assertThat(f.provider.runs().compareAndSwap(run.version(), triggering)).isTrue();
        if (status == RunStatus.TRIGGERING) {
            return triggering;
        }
        RunState running =
                triggering.moveTo(RunStatus.RUNNING, Fixture.T0).withMetadata(java.util.Map.of("dagRunId", "r-1"));
        assertThat(f.provider.runs().compareAndSwap(triggering.version(), running))
                .isTrue();
        return running;
    }

    private JsonNode resolveIn(String executionName) {
        java.util.Map<String, Object> request = f.request(OrchestratorAction.RESOLVE_PIPELINE);
        request.put("executionName", executionName);
        return f.call(request);
    }

    @Test
    void anExecutionAfterOneThatDiedWithItsJobRunningFollowsThatRunInsteadOfStartingAnother() {
        f.register("");
        String orphan = f.resolve();
        started(orphan, RunStatus.RUNNING);

        JsonNode next = resolveIn("orders_2026-03-02_daily_next0001");

        assertThat(next.get("result").asText()).isEqualTo("proceed");
        assertThat(next.get("payload").get("runId").asText())
                .as("the trigger answers it from its state")
                .isEqualTo(orphan);
        assertThat(f.provider.runs().get(orphan).orElseThrow().status()).isEqualTo(RunStatus.RUNNING);
        assertThat(f.events(EventKind.RUN_STATE_CHANGED)).as("no new run").hasSize(1);
        assertThat(f.events(EventKind.RUN_ADOPTED)).singleElement().satisfies(e -> {
            assertThat(e.runId()).isEqualTo(orphan);
            assertThat(e.details())
                    .containsEntry("startedBy", Fixture.EXECUTION)
                    .containsEntry("executionName", "orders_2026-03-02_daily_next0001");
        });
    }

    @Test
    void aRunCaughtWhileItsTriggerWasStartingTheJobIsFollowedToo() {
        f.register("");
        String orphan = f.resolve();
        started(orphan, RunStatus.TRIGGERING);

        assertThat(resolveIn("orders_2026-03-02_daily_next0002")
                        .get("payload")
                        .get("runId")
                        .asText())
                .isEqualTo(orphan);
    }

    @Test
    void aPendingRunStartedNoJobSoTheNextExecutionStartsItsOwn() {
        f.register("");
        String pending = f.resolve();

        String next = resolveIn("orders_2026-03-02_daily_next0003")
                .get("payload")
                .get("runId")
                .asText();

        assertThat(next).isNotEqualTo(pending);
        assertThat(f.events(EventKind.RUN_ADOPTED)).isEmpty();
    }

    @Test
    void aRunningRunOfAnotherDayIsNotAdopted() {
        f.register("");
        String orphan = f.resolve();
        started(orphan, RunStatus.RUNNING);

        java.util.Map<String, Object> otherDay = f.request(OrchestratorAction.RESOLVE_PIPELINE);
        otherDay.put("executionName", "orders_2026-03-03_daily_next0004");
        otherDay.put("date", "2026-03-03");

        assertThat(f.call(otherDay).get("payload").get("runId").asText()).isNotEqualTo(orphan);
        assertThat(f.events(EventKind.RUN_ADOPTED)).isEmpty();
    }

    @Test
    void monitoringAndTuningComeFromTheConfig() {
        f.register("monitoring: {enabled: true, duration: 2h}\nevaluationIntervalSeconds: 15\npollIntervalSeconds: 20\n"
                + "dryRun: true\nretry: {maxAttempts: 5}\n");

        JsonNode p = f.call(f.request(OrchestratorAction.RESOLVE_PIPELINE)).get("payload");

        assertThat(p.get("monitoring").get("enabled").asBoolean()).isTrue();
        assertThat(p.get("monitoring").get("durationSeconds").asLong()).isEqualTo(7200);
        assertThat(p.get("monitoring").get("intervalSeconds").asInt()).isEqualTo(300);
        assertThat(p.get("evaluationIntervalSeconds").asInt()).isEqualTo(15);
        assertThat(p.get("pollIntervalSeconds").asInt()).isEqualTo(20);
        assertThat(p.get("dryRun").asBoolean()).isTrue();
        assertThat(p.get("retry").get("maxAttempts").asInt()).isEqualTo(5);
        assertThat(p.get("retry").get("backoffSeconds").asInt()).isEqualTo(30);
    }

    @Test
    void aShortMonitoringWindowGetsARoundInsideIt() {
        f.register("monitoring: {enabled: true, duration: 90s}\n");

        JsonNode p = f.call(f.request(OrchestratorAction.RESOLVE_PIPELINE)).get("payload");

        assertThat(p.get("monitoring").get("intervalSeconds").asInt()).isEqualTo(90);
    }

    @Test
    void thePollLoopIsClampedToHalfTheExecutionTimeout() {
        f.register("pollIntervalSeconds: 60\npollLimit: 1000\n");

        JsonNode p = f.call(f.request(OrchestratorAction.RESOLVE_PIPELINE)).get("payload");

        assertThat(p.get("pollLimit").asInt()).isEqualTo(7200 / 60);
    }

    @Test
    void aPipelineWithoutTriggerIsAnErrorRecordedAsAPermanentFailureAndAlertedOnce() {
        f.provider
                .pipelines()
                .put(Documents.read(
                        "name: orders\narchetype: batch-ingestion\n",
                        dev.interlock.model.pipeline.PipelineConfig.class));

        JsonNode first = f.call(f.request(OrchestratorAction.RESOLVE_PIPELINE));
        JsonNode repeat = f.call(f.request(OrchestratorAction.RESOLVE_PIPELINE));

        assertThat(first.get("result").asText()).isEqualTo("error");
        assertThat(first.get("reason").asText()).isEqualTo("pipeline orders has no trigger");
        assertThat(first.get("payload").isObject()).isTrue();
        assertThat(repeat.get("result").asText()).isEqualTo("error");
        var log = f.runLog().orElseThrow();
        assertThat(log.status()).isEqualTo(RunLogStatus.FAILED);
        assertThat(log.failureCategory()).isEqualTo(FailureCategory.PERMANENT);
        assertThat(log.failureMessage()).isEqualTo("pipeline orders has no trigger");
        assertThat(log.attemptNumber()).isEqualTo(1);
        assertThat(log.retryHistory()).hasSize(1);
        assertThat(f.alerts.of(AlertKind.RUN_FAILED)).hasSize(1);
        assertThat(f.alerts.sent).hasSize(1);
        assertThat(f.events(EventKind.RUN_STATE_CHANGED))
                .extracting(e -> e.status())
                .containsExactly("FAILED");
    }

    @Test
    void anUnresolvablePipelineInALaterExecutionCountsAgainButAlertsOnce() {
        f.provider
                .pipelines()
                .put(Documents.read(
                        "name: orders\narchetype: batch-ingestion\n",
                        dev.interlock.model.pipeline.PipelineConfig.class));
        f.call(f.request(OrchestratorAction.RESOLVE_PIPELINE));
        var later = f.request(OrchestratorAction.RESOLVE_PIPELINE);
        later.put("executionName", "orders_2026-03-02_daily_later001");

        f.call(later);

        assertThat(f.runLog().orElseThrow().attemptNumber()).isEqualTo(2);
        assertThat(f.alerts.of(AlertKind.RUN_FAILED)).hasSize(1);
    }

    @Test
    void anUnknownArchetypeIsAnError() {
        f.provider
                .pipelines()
                .put(Documents.read(
                        "name: orders\narchetype: mystery\ntrigger: {type: http, url: 'https://x.example.com'}\n",
                        dev.interlock.model.pipeline.PipelineConfig.class));

        JsonNode response = f.call(f.request(OrchestratorAction.RESOLVE_PIPELINE));

        assertThat(response.get("result").asText()).isEqualTo("error");
        assertThat(response.get("reason").asText()).isEqualTo("unknown archetype 'mystery'");
    }

    @Test
    void monitoringWithoutAValidDurationIsAnError() {
        f.register("monitoring: {enabled: true, duration: soon}\n");

        JsonNode response = f.call(f.request(OrchestratorAction.RESOLVE_PIPELINE));

        assertThat(response.get("result").asText()).isEqualTo("error");
        assertThat(response.get("reason").asText()).startsWith("invalid pipeline config: monitoring.duration: ");
    }

    @Test
    void aMissingPipelineIsAnError() {
        JsonNode response = f.call(f.request(OrchestratorAction.RESOLVE_PIPELINE));

        assertThat(response.get("result").asText()).isEqualTo("error");
        assertThat(response.get("reason").asText()).isEqualTo("pipeline orders not found");
        assertThat(f.provider
                        .runs()
                        .listByPipeline("orders", dev.interlock.store.PageRequest.first(10))
                        .items())
                .isEmpty();
    }

    @Test
    void aLambdaRetryWithTheGatesAnswersFindsItsRunAndWritesNothingMore() {
        f.register("");
        java.util.Map<String, Object> request = f.request(
                OrchestratorAction.RESOLVE_PIPELINE,
                java.util.Map.of("archetype", "batch-ingestion", "attemptNumber", 1));

        JsonNode first = f.call(request);
        f.clock.advance(java.time.Duration.ofSeconds(30));
        JsonNode retry = f.call(request);

        assertThat(retry.get("payload").get("runId").asText())
                .isEqualTo(first.get("payload").get("runId").asText())
                .isEqualTo(f.resolve());
        // The trigger rebuilds the run from this: the retry answers the stored run's, not its own clock's.
        assertThat(retry.get("payload").get("runCreatedAt").asText())
                .isEqualTo(first.get("payload").get("runCreatedAt").asText())
                .isEqualTo("2026-03-02T10:00:00.000Z");
        assertThat(f.events(EventKind.RUN_STATE_CHANGED)).hasSize(1);
    }

    @Test
    void theAttemptTheRunLogGateAdmittedNamesTheRunWithoutReadingTheRunLog() {
        f.register("");
        CountingProvider counting = CountingProvider.around(f.provider);

        java.util.List<String> calls = counting.storeCallsDuring(() -> f.callOver(
                counting.provider(),
                f.request(
                        OrchestratorAction.RESOLVE_PIPELINE,
                        java.util.Map.of("archetype", "batch-ingestion", "attemptNumber", 1))));

        assertThat(calls).doesNotContain("runLogs.get", "pipelines.get", "archetypes.get", "watchdog.expectRunSettled");
    }

    @Test
    void aPipelineWhoseArchetypeChangedSinceTheGateIsResolvedWithItsNewArchetype() {
        f.register("");
        JsonNode expected = f.call(f.request(OrchestratorAction.RESOLVE_PIPELINE));

        JsonNode stale = f.call(f.request(
                OrchestratorAction.RESOLVE_PIPELINE,
                java.util.Map.of("archetype", "streaming-enrichment", "attemptNumber", 1)));

        assertThat(stale.get("result").asText()).isEqualTo("proceed");
        assertThat(stale.get("payload").get("traits"))
                .isEqualTo(expected.get("payload").get("traits"));
    }

    @Test
    void anAdoptedRunIsAnsweredWithoutACreationTimeSoTheTriggerReadsIt() {
        f.register("");
        String orphan = resolveIn("exec-earlier").get("payload").get("runId").asText();
        started(orphan, RunStatus.RUNNING);

        JsonNode adopted = resolveIn("exec-later");

        assertThat(adopted.get("payload").get("runId").asText()).isEqualTo(orphan);
        assertThat(adopted.get("payload").get("runCreatedAt").asText()).isEmpty();
    }
}
