package dev.interlock.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.testing.Documents;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CheckValidationDeadlineTest {

    private final Fixture f = new Fixture();

    private JsonNode check(String executionStartTime) {
        Map<String, Object> payload = new LinkedHashMap<>();
        if (executionStartTime != null) {
            payload.put("executionStartTime", executionStartTime);
        }
        payload.put("executionTimeoutSeconds", 14400);
        return f.call(f.request(OrchestratorAction.CHECK_VALIDATION_DEADLINE, "run-1", payload));
    }

    /** An Airflow pipeline: its job is followed up to maxJobDurationSeconds (default 2 h) after it is triggered. */
    private void registerAsync(String extraYaml) {
        f.provider.pipelines().put(Documents.read("""
                name: orders
                archetype: batch-ingestion
                trigger: {type: airflow, url: "https://airflow.example.com", dagId: orders}
                """ + extraYaml, dev.interlock.model.pipeline.PipelineConfig.class));
    }

    @Test
    void withoutAValidationTimeoutASynchronousJobLeavesOnlyTheSafetyMargin() {
        f.register("");

        JsonNode response = check("2026-03-02T09:00:00Z");

        // 14400 s − 900 s: an http job finishes inside the trigger call.
        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(response.get("payload").get("deadline").asText()).isEqualTo("2026-03-02T12:45:00.000Z");
        assertThat(response.get("payload").get("exhausted").asBoolean()).isFalse();
    }

    @Test
    void withoutAValidationTimeoutAnAsynchronousJobKeepsRoomToBeFollowedForItsMaximumDuration() {
        registerAsync("maxJobDurationSeconds: 3600\npollIntervalSeconds: 60\n");

        JsonNode response = check("2026-03-02T09:00:00Z");

        // 14400 s − 900 s − (3600 s + 2 polls of 60 s) = 9780 s after the start
        assertThat(response.get("payload").get("deadline").asText()).isEqualTo("2026-03-02T11:43:00.000Z");
        registerAsync("");
        // the default maximum of 2 h with 30 s polls: 14400 − 900 − 7260 = 6240 s
        assertThat(check("2026-03-02T09:00:00Z").get("payload").get("deadline").asText())
                .isEqualTo("2026-03-02T10:44:00.000Z");
    }

    @Test
    void pastTheDefaultDeadlineItIsExhausted() {
        f.register("");
        f.clock.set(Instant.parse("2026-03-02T12:45:00Z"));

        assertThat(check("2026-03-02T09:00:00Z").get("payload").get("exhausted").asBoolean())
                .isTrue();
    }

    @Test
    void eachRoundTellsTheLockWhenTheHolderEvaluatesNextAndTheLastRoundWithdrawsIt() {
        f.register("evaluationIntervalSeconds: 120\n");
        dev.interlock.model.keys.LockKey key = new dev.interlock.model.keys.LockKey("orders", "daily", Fixture.DATE);
        f.provider.locks().acquire(key, Fixture.EXECUTION, java.time.Duration.ofHours(5));

        check("2026-03-02T09:00:00Z");
        var holder = f.provider.locks().holder(key).orElseThrow();
        assertThat(holder.nextRoundBy()).isEqualTo(Fixture.T0.plusSeconds(120 + 300));
        assertThat(holder.evaluatingUntil()).isEqualTo(Instant.parse("2026-03-02T12:45:00Z"));
        assertThat(holder.evaluatesAgainAfter(Fixture.T0)).isTrue();

        f.clock.set(Instant.parse("2026-03-02T12:45:00Z"));
        check("2026-03-02T09:00:00Z");
        assertThat(f.provider.locks().holder(key).orElseThrow().nextRoundBy())
                .as("the round at the deadline is the last")
                .isNull();
    }

    @Test
    void aConfiguredValidationTimeoutOnTheExecutionDateWins() {
        f.register("sla: {validationTimeout: '10:30', timezone: UTC}\n");

        JsonNode before = check("2026-03-02T09:00:00Z");
        f.clock.set(Instant.parse("2026-03-02T10:30:00Z"));
        JsonNode after = check("2026-03-02T09:00:00Z");

        assertThat(before.get("payload").get("deadline").asText()).isEqualTo("2026-03-02T10:30:00.000Z");
        assertThat(before.get("payload").get("exhausted").asBoolean()).isFalse();
        assertThat(after.get("payload").get("exhausted").asBoolean()).isTrue();
    }

    @Test
    void aConfiguredDeadlineBeyondTheExecutionsRoomIsKeptAndTheWaitContinuesInASuccessorWithTheLock() {
        f.register("sla: {validationTimeout: '23:00', timezone: UTC}\n");
        dev.interlock.model.keys.LockKey key = new dev.interlock.model.keys.LockKey("orders", "daily", Fixture.DATE);
        f.provider.locks().acquire(key, Fixture.EXECUTION, java.time.Duration.ofHours(5));
        String runId = f.resolve();
        // started 09:00: latest trigger 12:45 (http job); the next round at 12:44 + 60 s no longer fits
        f.clock.set(Instant.parse("2026-03-02T12:43:00Z"));
        JsonNode inBudget = checkRun(runId, "2026-03-02T09:00:00Z");
        f.clock.set(Instant.parse("2026-03-02T12:44:30Z"));
        JsonNode last = checkRun(runId, "2026-03-02T09:00:00Z");

        assertThat(inBudget.get("payload").get("deadline").asText()).isEqualTo("2026-03-02T23:00:00.000Z");
        assertThat(inBudget.get("payload").get("handedOver").asBoolean()).isFalse();
        assertThat(last.get("result").asText()).isEqualTo("proceed");
        assertThat(last.get("payload").get("exhausted").asBoolean()).isFalse();
        assertThat(last.get("payload").get("handedOver").asBoolean()).isTrue();
        var marker = f.provider.cascade().markers("orders", Fixture.DATE).getFirst();
        assertThat(marker.source()).isEqualTo(dev.interlock.model.marker.MarkerSource.CONTINUATION);
        String successor = last.get("payload").get("successorExecution").asText();
        assertThat(successor).isEqualTo(marker.executionName());
        var holder = f.provider.locks().holder(key).orElseThrow();
        assertThat(holder.owner()).as("the lock passed without ever being free").isEqualTo(successor);
        assertThat(holder.nextRoundBy())
                .isEqualTo(Instant.parse("2026-03-02T12:45:30Z").plusSeconds(300));
        assertThat(f.provider.runs().get(runId).orElseThrow().status())
                .isEqualTo(dev.interlock.model.run.RunStatus.CANCELLED);
        assertThat(f.events(dev.interlock.model.event.EventKind.EXECUTION_HANDED_OVER))
                .singleElement()
                .satisfies(e -> assertThat(e.details()).containsEntry("successorExecution", successor));
        // a repeated call (Step Functions retried the task) writes no second marker and keeps the lock passed
        checkRun(runId, "2026-03-02T09:00:00Z");
        assertThat(f.provider.cascade().markers("orders", Fixture.DATE)).hasSize(1);
        assertThat(f.provider.locks().holder(key).orElseThrow().owner()).isEqualTo(successor);
    }

    @Test
    void theSuccessorWaitsAtItsLockGateUntilOneIntervalAfterThePredecessorsLastRound() {
        f.register("sla: {validationTimeout: '23:00', timezone: UTC}\n");
        dev.interlock.model.keys.LockKey key = new dev.interlock.model.keys.LockKey("orders", "daily", Fixture.DATE);
        f.provider.locks().acquire(key, Fixture.EXECUTION, java.time.Duration.ofHours(5));
        f.clock.set(Instant.parse("2026-03-02T12:44:30Z"));
        String successor = checkRun(null, "2026-03-02T09:00:00Z")
                .get("payload")
                .get("successorExecution")
                .asText();
        f.clock.set(Instant.parse("2026-03-02T12:44:35Z"));

        JsonNode early = acquireAs(successor, "2026-03-02T12:44:34Z");
        f.clock.set(Instant.parse("2026-03-02T12:45:30Z"));
        JsonNode due = acquireAs(successor, "2026-03-02T12:44:34Z");

        assertThat(early.get("result").asText()).isEqualTo("skip");
        assertThat(early.get("payload").get("waitSeconds").asLong()).isEqualTo(55);
        assertThat(due.get("result").asText()).isEqualTo("proceed");
        assertThat(due.get("payload").get("acquired").asBoolean()).isTrue();
    }

    private JsonNode checkRun(String runId, String executionStartTime) {
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("executionStartTime", executionStartTime);
        payload.put("executionTimeoutSeconds", 14400);
        payload.put("replay", false);
        return f.call(f.request(OrchestratorAction.CHECK_VALIDATION_DEADLINE, runId, payload));
    }

    private JsonNode acquireAs(String execution, String executionStartTime) {
        Map<String, Object> request = f.request(
                OrchestratorAction.ACQUIRE_LOCK,
                Map.of(
                        "owner",
                        execution,
                        "executionTimeoutSeconds",
                        14400,
                        "executionStartTime",
                        executionStartTime,
                        "replay",
                        false,
                        "markerSource",
                        "continuation"));
        request.put("executionName", execution);
        return f.call(request);
    }

    @Test
    void anUnparsableSettingFallsBackAndStillAnswersExhausted() {
        f.register("sla: {validationTimeout: 'whenever'}\n");
        f.clock.set(Instant.parse("2026-03-02T13:00:00Z"));

        JsonNode response = check("2026-03-02T09:00:00Z");

        assertThat(response.get("result").asText()).isEqualTo("error");
        assertThat(response.get("reason").asText())
                .startsWith("invalid sla.validationTimeout, using the execution's own deadline");
        assertThat(response.get("payload").get("exhausted").asBoolean()).isTrue();
        assertThat(response.get("payload").get("deadline").asText()).isEqualTo("2026-03-02T12:45:00.000Z");
    }

    @Test
    void withoutAStartTimeTheRunsCreationIsTheStart() {
        f.register("");
        String runId = f.resolve();
        f.clock.set(Instant.parse("2026-03-02T13:45:00Z"));

        JsonNode response = f.call(f.request(
                OrchestratorAction.CHECK_VALIDATION_DEADLINE, runId, Map.of("executionTimeoutSeconds", 14400)));

        assertThat(response.get("payload").get("deadline").asText()).isEqualTo("2026-03-02T13:45:00.000Z");
        assertThat(response.get("payload").get("exhausted").asBoolean()).isTrue();
    }

    @Test
    void withoutAnyStartTheLoopIsEnded() {
        f.register("");

        JsonNode response = check(null);

        assertThat(response.get("result").asText()).isEqualTo("error");
        assertThat(response.get("payload").get("exhausted").asBoolean()).isTrue();
    }

    @Test
    void aVanishedPipelineStillEndsTheLoopInTime() {
        f.clock.set(Instant.parse("2026-03-02T13:00:00Z"));

        JsonNode response = check("2026-03-02T09:00:00Z");

        assertThat(response.get("result").asText()).isEqualTo("error");
        assertThat(response.get("payload").get("exhausted").asBoolean()).isTrue();
    }

    private JsonNode checkRound(String traitResultsJson) {
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("executionStartTime", "2026-03-02T09:00:00Z");
        payload.put("executionTimeoutSeconds", 14400);
        payload.put("traitResults", dev.interlock.model.json.InterlockJson.read(traitResultsJson, JsonNode.class));
        return f.call(f.request(OrchestratorAction.CHECK_VALIDATION_DEADLINE, "run-1", payload));
    }

    @Test
    void aRequiredTraitsPermanentErrorEndsTheWaitAtOnceNamingTheTraitAndWithdrawsTheRound() {
        f.register("");
        dev.interlock.model.keys.LockKey key = new dev.interlock.model.keys.LockKey("orders", "daily", Fixture.DATE);
        f.provider.locks().acquire(key, Fixture.EXECUTION, java.time.Duration.ofHours(5));

        JsonNode payload = checkRound("""
                [{"traitType":"source-freshness","status":"ERROR","reason":"EVALUATOR_HTTP_ERROR: 403","failureCategory":"PERMANENT","required":true},
                 {"traitType":"upstream-dependency","status":"PASS","required":true}]
                """).get("payload");

        assertThat(payload.get("exhausted").asBoolean()).isTrue();
        assertThat(payload.get("failureCategory").asText()).isEqualTo("PERMANENT");
        assertThat(payload.get("trait").asText()).isEqualTo("source-freshness");
        assertThat(payload.get("message").asText())
                .startsWith("trait source-freshness failed PERMANENT: EVALUATOR_HTTP_ERROR: 403");
        assertThat(f.provider.locks().holder(key).orElseThrow().evaluatesAgainAfter(Fixture.T0))
                .isFalse();
    }

    @Test
    void aTransientOrOptionalErrorKeepsWaitingUntilTheDeadline() {
        f.register("");

        JsonNode payload = checkRound("""
                [{"traitType":"source-freshness","status":"ERROR","reason":"HTTP 503","failureCategory":"TRANSIENT","required":true},
                 {"traitType":"resource-availability","status":"ERROR","reason":"403","failureCategory":"PERMANENT","required":false}]
                """).get("payload");

        assertThat(payload.get("exhausted").asBoolean()).isFalse();
        assertThat(payload.get("failureCategory").asText()).isEqualTo("VALIDATION_EXHAUSTED");
        assertThat(payload.get("trait").asText()).isEmpty();
    }
}
