package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.contract.OrchestratorAction;
import java.time.LocalDate;
import java.time.format.TextStyle;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * The Go original's eleven end-to-end scenarios (docs/architecture.md, History) with this product's corrected behaviour: NOT READY is
 * re-evaluated inside the execution until ready or until the validation deadline, a second marker the same day
 * starts a new evaluation, exclusions are judged on the execution date, alerts are deduplicated.
 */
class GoOriginalScenariosTest extends EndToEnd {

    /** batch-ingestion with its three required traits on one sensor: fresh, 24 partitions, at least 1000 rows. */
    private String sensorPipeline(String name, String sensor, String extra) {
        return """
                name: %s
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:sensor-freshness", config: {sensor: %s, maxAgeSeconds: 3600}}
                  upstream-dependency: {evaluator: "builtin:sensor-threshold", config: {sensor: %s, field: partitions, op: gte, value: 24}}
                  resource-availability: {evaluator: "builtin:sensor-threshold", config: {sensor: %s, field: count, op: gte, value: 1000}}
                trigger: {type: http, url: "%s/jobs/%s"}
                evaluationIntervalSeconds: 60
                %s
                """.formatted(name, sensor, sensor, sensor, jobs.endpoint(), name, extra);
    }

    private String passingPipeline(String name, String extra) {
        return """
                name: %s
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%s/jobs/%s"}
                %s
                """.formatted(name, jobs.endpoint(), name, extra);
    }

    private List<String> readiness(String pipeline) {
        return eventsOf(pipeline, "READINESS_CHECKED").stream()
                .map(e -> e.path("status").asText())
                .toList();
    }

    @Test
    void s1ProgressiveReadinessReEvaluatesInsideOneExecutionUntilEveryTraitPasses() {
        LocalDate date = today();
        // The first reading is there before the pipeline is registered; later ones arrive while it waits.
        sensor("s1-src", "{\"count\":500,\"partitions\":3}");
        putPipeline(sensorPipeline("s1-progressive", "s1-src", ""));
        String name = evaluate("s1-progressive", date);

        // Round 1: only freshness passes; round 2: partitions arrive; round 3: the count too — one execution
        // throughout.
        await("first NOT READY", () -> readiness("s1-progressive"), r -> !r.isEmpty());
        sensor("s1-src", "{\"count\":500,\"partitions\":24}");
        int seen = readiness("s1-progressive").size();
        await(
                "another NOT READY after the partitions arrived",
                () -> readiness("s1-progressive"),
                r -> r.size() > seen);
        assertThat(jobs.triggersOf("s1-progressive")).isZero();
        sensor("s1-src", "{\"count\":1500,\"partitions\":24}");

        assertThat(awaitDone(name)).isEqualTo(ExecutionStatus.SUCCEEDED);
        List<String> readiness = readiness("s1-progressive");
        assertThat(readiness.subList(0, readiness.size() - 1)).isNotEmpty().allMatch("NOT_READY"::equals);
        assertThat(readiness.getLast()).isEqualTo("READY");
        List<String> states = visited(arnOf(name));
        assertThat(states)
                .containsSubsequence(
                        "CheckExclusion",
                        "AcquireLock",
                        "CheckRunLog",
                        "ResolvePipeline",
                        "EvaluateTraits",
                        "CheckReadiness",
                        "WaitBeforeReevaluation",
                        "EvaluateTraits",
                        "CheckReadiness",
                        "TriggerPipeline",
                        "CheckCompletionSLA",
                        "LogCompleted",
                        "NotifyDownstream",
                        "ReleaseLockAndSucceed",
                        "Done");
        // Only a round that was not ready asks the validation deadline; the ready round goes straight to the trigger.
        int ready = states.lastIndexOf("CheckReadiness");
        assertThat(states.subList(ready, ready + 3)).containsExactly("CheckReadiness", "IsReady", "TriggerPipeline");
        assertThat(states.subList(0, ready))
                .containsSubsequence("CheckReadiness", "IsReady", "CheckValidationDeadline", "IsValidationExhausted")
                .doesNotContain("CheckEvaluationSLA");
        // Every round's results, recorded by checkReadiness (the evaluators write nothing), are in the day's events.
        List<JsonNode> evaluated = eventsOf("s1-progressive", "TRAIT_EVALUATED");
        assertThat(evaluated).hasSize(3 * readiness.size());
        assertThat(evaluated.subList(evaluated.size() - 3, evaluated.size()))
                .extracting(e ->
                        e.path("traitType").asText() + "=" + e.path("status").asText())
                .containsExactlyInAnyOrder(
                        "source-freshness=PASS", "upstream-dependency=PASS", "resource-availability=PASS");
        // Each new reading also started an evaluation of the day (data arrival); they met the waiting execution's
        // lock, which re-evaluated anyway: only that one ever triggered.
        assertThat(executions("s1-progressive"))
                .filteredOn(e -> !e.name().equals(name))
                .allSatisfy(e -> {
                    assertThat(input(e.executionArn()).path("markerSource").asText())
                            .isEqualTo("sensor");
                    assertThat(visited(e.executionArn())).doesNotContain("TriggerPipeline");
                });
        assertThat(jobs.triggersOf("s1-progressive")).isEqualTo(1);
        JsonNode log = runLog("s1-progressive", date, "daily");
        assertThat(log.path("status").asText()).isEqualTo("COMPLETED");
        // NOT READY rounds are not attempts.
        assertThat(log.path("attemptNumber").asInt()).isZero();
        assertThat(runs("s1-progressive"))
                .extracting(r -> r.path("status").asText())
                .containsExactly("COMPLETED");
        assertThat(alerts("s1-progressive")).isEmpty();
    }

    @Test
    void s2QualityDropExhaustsValidationThenASecondMarkerTheSameDayCompletes() {
        LocalDate date = today();
        // The validation deadline is 20 scaled minutes away: the first execution gives up while the count is low. It is
        // a duration after the date's midnight (the window opening), so it stays right if the scaled clock passes
        // midnight.
        long minutes = java.time.Duration.between(
                                date.atStartOfDay(java.time.ZoneOffset.UTC).toInstant(),
                                rt.clock().instant())
                        .toMinutes()
                + 20;
        sensor("s2-src", "{\"count\":800,\"partitions\":24}");
        putPipeline(sensorPipeline(
                "s2-quality", "s2-src", "sla: {validationTimeout: \"+" + minutes + "m\", timezone: UTC}"));
        String first = evaluate("s2-quality", date);

        assertThat(awaitDone(first)).isEqualTo(ExecutionStatus.FAILED);
        assertThat(visited(arnOf(first)))
                .containsSubsequence(
                        "CheckReadiness",
                        "CheckValidationDeadline",
                        "WaitBeforeReevaluation",
                        "CheckReadiness",
                        "CheckValidationDeadline",
                        "IsValidationExhausted",
                        "LogValidationExhausted",
                        "ReleaseLockAndFail",
                        "PipelineFailed")
                .doesNotContain("TriggerPipeline");
        JsonNode failed = runLog("s2-quality", date, "daily");
        assertThat(failed.path("status").asText()).isEqualTo("FAILED");
        assertThat(failed.path("failureCategory").asText()).isEqualTo("VALIDATION_EXHAUSTED");
        // Waiting for data that never came in time is no attempt: the missed deadline is the alert.
        assertThat(failed.path("attemptNumber").asInt()).isZero();
        assertThat(alertKinds("s2-quality")).containsExactly("VALIDATION_EXHAUSTED");

        // The count recovers: its arrival is a new marker the same day, which starts a new evaluation that completes.
        putPipeline(sensorPipeline("s2-quality", "s2-src", ""));
        String second = expect(200, "PUT", "/sensors/s2-src", "application/json", "{\"count\":1200,\"partitions\":24}")
                .path("evaluations")
                .get(0)
                .path("executionName")
                .asText();
        assertThat(second).isNotEqualTo(first);
        assertThat(awaitDone(second)).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(visited(arnOf(second)))
                .containsSubsequence(
                        "CheckRunLog",
                        "ResolvePipeline",
                        "EvaluateTraits",
                        "CheckReadiness",
                        "TriggerPipeline",
                        "LogCompleted",
                        "Done")
                .doesNotContain("WaitBeforeReevaluation");
        JsonNode completed = runLog("s2-quality", date, "daily");
        assertThat(completed.path("status").asText()).isEqualTo("COMPLETED");
        assertThat(completed.path("retryHistory"))
                .extracting(h -> h.path("status").asText())
                .containsExactly("FAILED", "COMPLETED");
        assertThat(completed.path("retryHistory").get(0).path("failureCategory").asText())
                .isEqualTo("VALIDATION_EXHAUSTED");
        assertThat(jobs.triggersOf("s2-quality")).isEqualTo(1);
        assertThat(runs("s2-quality"))
                .extracting(r -> r.path("status").asText())
                .containsExactlyInAnyOrder("FAILED", "COMPLETED");
        assertThat(alertKinds("s2-quality")).containsExactly("VALIDATION_EXHAUSTED");
    }

    @Test
    void s3AlreadyCompletedIsSkippedWithoutEvaluating() {
        LocalDate date = today();
        putPipeline(passingPipeline("s3-dedup", ""));
        assertThat(awaitDone(evaluate("s3-dedup", date))).isEqualTo(ExecutionStatus.SUCCEEDED);
        int eventsBefore = events("s3-dedup").size();

        String again = evaluate("s3-dedup", date);
        assertThat(awaitDone(again)).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(visited(arnOf(again)))
                .containsExactly(
                        "InitDefaults",
                        "CheckExclusion",
                        "IsExcluded",
                        "AcquireLock",
                        "IsLockAcquired",
                        "CheckRunLog",
                        "ShouldProceedAfterRunLog",
                        "ReleaseLockAndSucceed",
                        "Done");
        assertThat(jobs.triggersOf("s3-dedup")).isEqualTo(1);
        assertThat(runs("s3-dedup")).hasSize(1);
        assertThat(runLogStatus("s3-dedup", date, "daily")).isEqualTo("COMPLETED");
        assertThat(events("s3-dedup").subList(eventsBefore, events("s3-dedup").size()))
                .extracting(e -> e.path("kind").asText())
                .doesNotContain("TRAIT_EVALUATED", "TRIGGER_FIRED");
        assertThat(alerts("s3-dedup")).isEmpty();
    }

    @Test
    void s4ExcludedDayEndsRightAfterTheExclusionCheck() {
        LocalDate date = today();
        String weekday = date.getDayOfWeek()
                .getDisplayName(TextStyle.FULL, Locale.ENGLISH)
                .toLowerCase(Locale.ROOT);
        putPipeline(passingPipeline("s4-excluded", "exclusions: {days: [" + weekday + "]}"));
        String name = evaluate("s4-excluded", date);

        assertThat(awaitDone(name)).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(visited(arnOf(name))).containsExactly("InitDefaults", "CheckExclusion", "IsExcluded", "Done");
        assertThat(jobs.triggersOf("s4-excluded")).isZero();
        assertThat(runLogs("s4-excluded")).isEmpty();
        assertThat(runs("s4-excluded")).isEmpty();
        assertThat(alerts("s4-excluded")).isEmpty();
    }

    @Test
    void s5PipelineNotFoundIsRefusedByTheApiAndFailsAStartedExecution() {
        JsonNode problem = expect(404, "POST", "/pipelines/s5-nonexistent/evaluations", "application/json", "{}");
        assertThat(problem.path("status").asInt()).isEqualTo(404);
        assertThat(executions("s5-nonexistent")).isEmpty();

        // Started directly (as the Go original's script did), the gate answers error and the execution tells the truth.
        String arn = aws.stepFunctions()
                .startExecution(b -> b.stateMachineArn(rt.stateMachineArn())
                        .name("s5-nonexistent_direct")
                        .input("{\"pipelineId\":\"s5-nonexistent\",\"scheduleId\":\"daily\"}"))
                .executionArn();
        assertThat(await("direct execution finished", () -> status(arn), s -> s != ExecutionStatus.RUNNING))
                .isEqualTo(ExecutionStatus.FAILED);
        assertThat(visited(arn)).containsExactly("InitDefaults", "CheckExclusion", "IsExcluded", "PipelineFailed");
        assertThat(runLogs("s5-nonexistent")).isEmpty();
        // Never only a FAILED execution: the gate error is an event and a (deduplicated) alert, itself an event.
        assertThat(eventsOf("s5-nonexistent", "GATE_ERROR"))
                .singleElement()
                .satisfies(
                        e -> assertThat(e.path("details").path("executionName").asText())
                                .isEqualTo("s5-nonexistent_direct"));
        assertThat(events("s5-nonexistent"))
                .extracting(
                        e -> e.path("kind").asText() + " " + e.path("status").asText())
                .containsExactly("GATE_ERROR ERROR", "ALERT_SENT GATE_ERROR");
        assertThat(alertKinds("s5-nonexistent")).containsExactly("GATE_ERROR");
        JsonNode gate = invokeOrchestrator("{\"action\":\"" + OrchestratorAction.CHECK_EXCLUSION.wireName()
                + "\",\"pipelineId\":\"s5-nonexistent\",\"scheduleId\":\"daily\"," + "\"date\":\"" + today()
                + "\",\"payload\":{}}");
        assertThat(gate.path("result").asText()).isEqualTo("error");
        assertThat(gate.path("payload").path("excluded").asBoolean(true)).isFalse();
        assertThat(alertKinds("s5-nonexistent")).as("sent once a day").containsExactly("GATE_ERROR");
    }

    @Test
    void s6TheStreamRouterStartsOneExecutionPerMarkerNamedAfterIt() {
        LocalDate date = today();
        putPipeline(passingPipeline("s6-stream", ""));
        JsonNode accepted = expect(
                202, "POST", "/pipelines/s6-stream/evaluations", "application/json", "{\"date\":\"" + date + "\"}");
        String name = accepted.path("executionName").asText();
        assertThat(name).matches("s6-stream_" + date + "_daily_[0-9a-f]{8}");
        assertThat(accepted.path("marker").path("source").asText()).isEqualTo("manual");

        assertThat(awaitDone(name)).isEqualTo(ExecutionStatus.SUCCEEDED);
        JsonNode input = input(arnOf(name));
        assertThat(input.path("pipelineId").asText()).isEqualTo("s6-stream");
        assertThat(input.path("scheduleId").asText()).isEqualTo("daily");
        assertThat(input.path("date").asText()).isEqualTo(date.toString());
        assertThat(input.path("markerSource").asText()).isEqualTo("manual");
        assertThat(input.path("replay").asBoolean(true)).isFalse();
        assertThat(executions("s6-stream")).extracting(ExecutionListItem::name).containsExactly(name);
        assertThat(runLogStatus("s6-stream", date, "daily")).isEqualTo("COMPLETED");
        assertThat(jobs.triggersOf("s6-stream")).isEqualTo(1);
        assertThat(eventKinds("s6-stream")).contains("TRAIT_EVALUATED", "READINESS_CHECKED", "TRIGGER_FIRED");
    }

    @Test
    void s7CascadeSilverToGold() {
        LocalDate date = today();
        putPipeline(passingPipeline("s7-silver", ""));
        putPipeline("""
                name: s7-gold
                archetype: batch-ingestion
                traits:
                  upstream-dependency: {evaluator: "builtin:upstream-run-log", config: {upstreamPipeline: s7-silver}}
                  source-freshness: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: airflow, url: "%s", dagId: s7_gold}
                """.formatted(jobs.endpoint()));
        String silver = evaluate("s7-silver", date);

        List<ExecutionListItem> gold = awaitExecutionsDone("s7-gold", 1);
        assertThat(awaitDone(silver)).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(visited(arnOf(silver)))
                .containsSubsequence("TriggerPipeline", "LogCompleted", "NotifyDownstream", "Done");
        assertThat(gold.getFirst().status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(input(gold.getFirst().executionArn()).path("markerSource").asText())
                .isEqualTo("cascade");
        assertThat(visited(gold.getFirst().executionArn()))
                .containsSubsequence(
                        "TriggerPipeline",
                        "IsTriggerSuccessful",
                        "WaitForRun",
                        "PollRunStatus",
                        "CheckCompletionSLA",
                        "LogCompleted",
                        "Done");
        assertThat(eventsOf("s7-silver", "CASCADE_NOTIFIED")).hasSize(1);
        assertThat(runLogStatus("s7-silver", date, "daily")).isEqualTo("COMPLETED");
        assertThat(runLogStatus("s7-gold", date, "daily")).isEqualTo("COMPLETED");
        assertThat(jobs.received()).extracting(r -> r.job()).containsSubsequence("s7-silver", "s7_gold");
        assertThat(jobs.triggersOf("s7_gold")).isEqualTo(1);
        assertThat(alerts("s7-silver")).isEmpty();
        assertThat(alerts("s7-gold")).isEmpty();
    }

    @Test
    void s8RetryAcrossAttemptsAfterATransientTriggerFailure() {
        LocalDate date = today();
        putPipeline(passingPipeline("s8-retry", "retry: {maxAttempts: 3, backoffSeconds: 60}"));
        // HTTP 500: a transient failure the trigger does not retry within its call (a 503 it would), so the machine's
        // own retry loop has to bring the second attempt.
        jobs.failNext("s8-retry", 1, 500);
        String name = evaluate("s8-retry", date);

        assertThat(awaitDone(name)).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(visited(arnOf(name)))
                .containsSubsequence(
                        "TriggerPipeline",
                        "LogTriggerFailed",
                        "PlanRetry",
                        "ShouldRetry",
                        "CheckRunLog",
                        "WaitForRetryWindow",
                        "CheckRunLog",
                        "ResolvePipeline",
                        "TriggerPipeline",
                        "LogCompleted",
                        "Done");
        JsonNode log = runLog("s8-retry", date, "daily");
        assertThat(log.path("status").asText()).isEqualTo("COMPLETED");
        assertThat(log.path("attemptNumber").asInt()).isEqualTo(1);
        assertThat(log.path("retryHistory")).hasSize(2);
        assertThat(log.path("retryHistory").get(0).path("attempt").asInt()).isEqualTo(1);
        assertThat(log.path("retryHistory").get(0).path("status").asText()).isEqualTo("FAILED");
        assertThat(log.path("retryHistory").get(0).path("failureCategory").asText())
                .isEqualTo("TRANSIENT");
        assertThat(log.path("retryHistory").get(1).path("status").asText()).isEqualTo("COMPLETED");
        assertThat(jobs.triggersOf("s8-retry")).isEqualTo(1);
        assertThat(runs("s8-retry"))
                .extracting(r -> r.path("status").asText())
                .containsExactlyInAnyOrder("FAILED", "COMPLETED");
        assertThat(alertKinds("s8-retry")).containsExactly("TRIGGER_FAILED");
        assertThat(eventKinds("s8-retry")).contains("TRIGGER_FAILED", "RETRY_SCHEDULED");
    }

    @Test
    void s9PostRunMonitoringWithoutDriftEndsWhenTheWindowExpires() {
        LocalDate date = today();
        putPipeline(passingPipeline("s9-monitored", "monitoring: {enabled: true, duration: 30m}"));
        String name = evaluate("s9-monitored", date);

        assertThat(awaitDone(name)).isEqualTo(ExecutionStatus.SUCCEEDED);
        List<String> states = visited(arnOf(name));
        assertThat(states)
                .containsSubsequence(
                        "TriggerPipeline",
                        "LogCompleted",
                        "NotifyDownstream",
                        "ShouldMonitor",
                        "MonitoringWait",
                        "MonitoringEvaluate",
                        "MonitoringCheckDrift",
                        "IsDrifted",
                        "CheckMonitoringExpired",
                        "IsMonitoringExpired",
                        "ReleaseLockAndSucceed",
                        "Done")
                .doesNotContain("HandleLateArrival");
        assertThat(runLogStatus("s9-monitored", date, "daily")).isEqualTo("COMPLETED");
        assertThat(jobs.triggersOf("s9-monitored")).isEqualTo(1);
        assertThat(eventKinds("s9-monitored")).doesNotContain("MONITORING_DRIFT_DETECTED", "LATE_ARRIVAL_DETECTED");
        assertThat(alerts("s9-monitored")).isEmpty();
    }

    @Test
    void s10ReplayOfACompletedDayTriggersAgain() {
        LocalDate date = today();
        putPipeline(passingPipeline("s10-replay", ""));
        assertThat(awaitDone(evaluate("s10-replay", date))).isEqualTo(ExecutionStatus.SUCCEEDED);

        JsonNode accepted = expect(
                202,
                "POST",
                "/pipelines/s10-replay/reruns",
                "application/json",
                "{\"date\":\"" + date + "\",\"reason\":\"e2e replay test\"}");
        assertThat(accepted.path("rerun").path("reason").asText()).isEqualTo("e2e replay test");
        assertThat(accepted.path("marker").path("replay").asBoolean()).isTrue();
        String replay = accepted.path("executionName").asText();

        assertThat(awaitDone(replay)).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(input(arnOf(replay)).path("replay").asBoolean()).isTrue();
        assertThat(visited(arnOf(replay)))
                .containsSubsequence(
                        "CheckRunLog",
                        "ShouldProceedAfterRunLog",
                        "ResolvePipeline",
                        "TriggerPipeline",
                        "LogCompleted",
                        "Done");
        assertThat(jobs.triggersOf("s10-replay")).isEqualTo(2);
        assertThat(runs("s10-replay"))
                .extracting(r -> r.path("status").asText())
                .containsExactly("COMPLETED", "COMPLETED");
        JsonNode log = runLog("s10-replay", date, "daily");
        assertThat(log.path("status").asText()).isEqualTo("COMPLETED");
        assertThat(log.path("retryHistory"))
                .extracting(h -> h.path("status").asText())
                .containsExactly("COMPLETED", "COMPLETED");
    }

    @Test
    void s11EvaluationSlaBreachAlertsOnceWhileReEvaluating() {
        // A deadline a few minutes after the registration, passed while the pipeline is still NOT READY (a deadline
        // that passed before the pipeline existed is never alerted).
        java.time.Instant deadline = rt.clock()
                .instant()
                .plus(java.time.Duration.ofMinutes(3))
                .truncatedTo(java.time.temporal.ChronoUnit.MINUTES);
        LocalDate date = LocalDate.ofInstant(deadline, java.time.ZoneOffset.UTC);
        String hhmm = java.time.LocalTime.ofInstant(deadline, java.time.ZoneOffset.UTC)
                .toString();
        putPipeline(sensorPipeline("s11-sla", "s11-src", "sla: {evaluationDeadline: \"" + hhmm + "\", timezone: UTC}"));
        // The sensor's arrival starts the day's evaluation (an explicit request now would only be absorbed by it).
        sensor("s11-src", "{\"count\":10,\"partitions\":24}");
        String name = await(
                        "the day's evaluation holding its lock",
                        () -> call("GET", "/pipelines/s11-sla/locks/daily/" + date, null, null),
                        r -> r.status() == 200)
                .body()
                .path("owner")
                .asText();

        await("the SLA breached while re-evaluating", () -> alerts("s11-sla"), a -> !a.isEmpty());
        int rounds = readiness("s11-sla").size();
        await("three more NOT READY rounds", () -> readiness("s11-sla"), r -> r.size() >= rounds + 3);
        aws.stepFunctions()
                .stopExecution(
                        b -> b.executionArn(arnOf(name)).error("Test.Stop").cause("the scenario has seen enough"));
        assertThat(awaitDone(name)).isEqualTo(ExecutionStatus.ABORTED);

        assertThat(readiness("s11-sla")).allMatch("NOT_READY"::equals);
        assertThat(visited(arnOf(name)))
                .containsSubsequence(
                        "CheckReadiness", "CheckValidationDeadline", "WaitBeforeReevaluation", "CheckReadiness")
                .doesNotContain("TriggerPipeline", "CheckEvaluationSLA");
        List<JsonNode> alerts = alerts("s11-sla");
        assertThat(alerts).extracting(a -> a.path("kind").asText()).containsExactly("SLA_EVALUATION_BREACHED");
        assertThat(alerts.getFirst().path("date").asText()).isEqualTo(date.toString());
        assertThat(alerts.getFirst().path("scheduleId").asText()).isEqualTo("daily");
        assertThat(eventsOf("s11-sla", "SLA_BREACHED")).isNotEmpty();
        assertThat(jobs.triggersOf("s11-sla")).isZero();
    }
}
