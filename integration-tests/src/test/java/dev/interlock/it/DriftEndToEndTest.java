package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * Post-run monitoring: only newer or more complete data is drift (a trait turning PASS, or {@code driftField} moving by
 * more than {@code driftThreshold}), never a result that aged; and a rerun that cannot become ready leaves the day
 * COMPLETED and reports itself failed.
 */
class DriftEndToEndTest extends EndToEnd {

    @Test
    void aFreshnessCheckAgeingAfterCompletionIsNotDrift() {
        LocalDate date = today();
        putPipeline("""
                name: drift-ageing
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:sensor-freshness", config: {sensor: drift-ageing-src, maxAgeSeconds: 600}}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%s/jobs/drift-ageing"}
                schedules: [{name: daily, after: "23:59"}]
                monitoring: {enabled: true, duration: 40m, driftField: actual, driftThreshold: 100}
                """.formatted(jobs.endpoint()));
        String name = evaluate("drift-ageing", date);
        // Keep the source fresh until the job is triggered (however slowly this machine starts the execution),
        // then stop: during monitoring the freshness check can only age (PASS -> STALE), which is no new data.
        Instant[] lastPush = {Instant.EPOCH};
        await(
                "drift-ageing triggered",
                () -> {
                    if (Instant.now().isAfter(lastPush[0].plusMillis(200))) {
                        sensor("drift-ageing-src", "{\"rows\":1}");
                        lastPush[0] = Instant.now();
                    }
                    return jobs.triggersOf("drift-ageing");
                },
                n -> n >= 1);

        assertThat(awaitDone(name)).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(visited(arnOf(name)))
                .contains("MonitoringCheckDrift", "CheckMonitoringExpired")
                .doesNotContain("HandleLateArrival");
        // The check did age while monitored...
        assertThat(eventsOf("drift-ageing", "TRAIT_EVALUATED"))
                .anySatisfy(e -> assertThat(e.path("traitType").asText() + "="
                                + e.path("status").asText())
                        .isEqualTo("source-freshness=STALE"));
        // ...and nothing was rerun because of it.
        assertThat(eventsOf("drift-ageing", "MONITORING_DRIFT_DETECTED")).isEmpty();
        assertThat(eventsOf("drift-ageing", "RERUN_REQUESTED")).isEmpty();
        assertThat(executions("drift-ageing")).hasSize(1);
        assertThat(jobs.triggersOf("drift-ageing")).isEqualTo(1);
        assertThat(runLogStatus("drift-ageing", date, "daily")).isEqualTo("COMPLETED");
        assertThat(alertKinds("drift-ageing")).isEmpty();
    }

    @Test
    void anOptionalCheckTurningPassAfterCompletionIsDriftAndRerunsTheDay() {
        LocalDate date = today();
        putPipeline("""
                name: drift-flip
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                  data-quality-sample: {evaluator: "builtin:sensor-threshold", config: {sensor: drift-flip-quality, field: checked, op: gte, value: 1}}
                trigger: {type: http, url: "%s/jobs/drift-flip"}
                schedules: [{name: daily, after: "23:59"}]
                monitoring: {enabled: true, duration: 1h}
                """.formatted(jobs.endpoint()));
        sensor("drift-flip-quality", "{\"checked\":0}");
        evaluate("drift-flip", date);
        await("drift-flip triggered", () -> jobs.triggersOf("drift-flip"), n -> n >= 1);

        // The optional quality sample did not block the run (FAIL before the trigger); now it passes: FAIL -> PASS.
        sensor("drift-flip-quality", "{\"checked\":1}");
        List<ExecutionListItem> executions = awaitExecutionsDone("drift-flip", 2);

        assertThat(visited(executions.get(0).executionArn())).contains("HandleLateArrival");
        assertThat(input(executions.get(1).executionArn()).path("markerSource").asText())
                .isEqualTo("late-arrival");
        assertThat(executions).allSatisfy(e -> assertThat(e.status()).isEqualTo(ExecutionStatus.SUCCEEDED));
        assertThat(eventsOf("drift-flip", "MONITORING_DRIFT_DETECTED"))
                .first()
                .satisfies(
                        e -> assertThat(e.path("details").path("drifted").get(0).asText())
                                .isEqualTo("data-quality-sample"));
        assertThat(jobs.triggersOf("drift-flip")).isEqualTo(2);
        assertThat(runLogStatus("drift-flip", date, "daily")).isEqualTo("COMPLETED");
    }

    @Test
    void aRerunThatCannotBecomeReadyLeavesTheDayCompletedAndReportsTheRerunFailed() {
        // Yesterday's validation deadline (00:01) has passed, so a rerun that is not ready gives up at once.
        LocalDate date = today().minusDays(1);
        putPipeline("""
                name: drift-unready
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:sensor-threshold", config: {sensor: drift-unready-upstream, field: ok, op: eq, value: 1}}
                  resource-availability: {evaluator: "builtin:sensor-threshold", config: {sensor: drift-unready-src, field: count, op: gte, value: 1000}}
                trigger: {type: http, url: "%s/jobs/drift-unready"}
                schedules: [{name: daily, after: "23:59"}]
                monitoring: {enabled: true, duration: 1h, driftField: actual, driftThreshold: 100}
                sla: {validationTimeout: "1m"}
                """.formatted(jobs.endpoint()));
        sensor("drift-unready-upstream", "{\"ok\":1}");
        sensor("drift-unready-src", "{\"count\":1500}");
        evaluate("drift-unready", date);
        await("drift-unready triggered", () -> jobs.triggersOf("drift-unready"), n -> n >= 1);

        // After completion the upstream is withdrawn (PASS -> FAIL: not drift) and then more rows land (drift):
        // the late-arrival rerun cannot become ready before its deadline.
        sensor("drift-unready-upstream", "{\"ok\":0}");
        sensor("drift-unready-src", "{\"count\":2600}");
        List<ExecutionListItem> executions = awaitExecutionsDone("drift-unready", 2);

        assertThat(executions.get(0).status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(visited(executions.get(0).executionArn())).contains("HandleLateArrival");
        assertThat(visited(executions.get(1).executionArn()))
                .contains("LogValidationExhausted")
                .doesNotContain("TriggerPipeline");
        // The completion stands.
        JsonNode log = runLog("drift-unready", date, "daily");
        assertThat(log.path("status").asText()).isEqualTo("COMPLETED");
        assertThat(jobs.triggersOf("drift-unready")).isEqualTo(1);
        // The rerun carries its outcome, as a record, an event and an alert.
        List<JsonNode> reruns = list("/pipelines/drift-unready/reruns");
        assertThat(reruns).singleElement().satisfies(r -> {
            assertThat(r.path("source").asText()).isEqualTo("late-arrival");
            assertThat(r.path("status").asText()).isEqualTo("FAILED");
            assertThat(r.path("statusReason").asText()).contains("VALIDATION_EXHAUSTED");
            assertThat(r.path("executionName").asText())
                    .isEqualTo(executions.get(1).name());
        });
        assertThat(eventsOf("drift-unready", "RERUN_STATUS_CHANGED"))
                .extracting(e -> e.path("status").asText())
                .containsExactly("STARTED", "FAILED");
        assertThat(alertKinds("drift-unready")).containsExactly("DRIFT_DETECTED", "RERUN_FAILED");
    }
}
