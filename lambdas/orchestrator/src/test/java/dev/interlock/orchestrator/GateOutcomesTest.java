package dev.interlock.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.keys.LockKey;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.run.RetryAttempt;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.store.RunLogKey;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A gate's answer the gate does not record itself is recorded by the dispatcher: errors alert, skips leave a reason. */
class GateOutcomesTest {

    private final Fixture f = new Fixture();

    @Test
    void anExclusionGateErrorIsAnEventAndAnAlertSentOnceADay() {
        JsonNode first = f.call(f.request(OrchestratorAction.CHECK_EXCLUSION));
        f.call(f.request(OrchestratorAction.CHECK_EXCLUSION));

        assertThat(first.get("result").asText()).isEqualTo("error");
        assertThat(f.events(EventKind.GATE_ERROR)).hasSize(2).allSatisfy(e -> {
            assertThat(e.details())
                    .containsEntry("gate", OrchestratorAction.CHECK_EXCLUSION.wireName())
                    .containsEntry("executionName", Fixture.EXECUTION);
            assertThat(e.message()).contains("pipeline orders not found");
        });
        assertThat(f.alerts.of(AlertKind.GATE_ERROR))
                .singleElement()
                .satisfies(a -> assertThat(a.message()).contains("checkExclusion gate", "not found"));
    }

    @Test
    void aRunLogGateErrorIsAlerted() {
        f.provider.runLogs().update(new RunLogKey("orders", Fixture.DATE, "daily"), c -> failedOnce());

        JsonNode response =
                f.call(f.request(OrchestratorAction.CHECK_RUN_LOG, Map.of("replay", false, "markerSource", "manual")));

        assertThat(response.get("result").asText()).isEqualTo("error");
        assertThat(f.alerts.of(AlertKind.GATE_ERROR)).hasSize(1);
        assertThat(f.events(EventKind.GATE_ERROR))
                .singleElement()
                .satisfies(e ->
                        assertThat(e.details()).containsEntry("gate", OrchestratorAction.CHECK_RUN_LOG.wireName()));
    }

    @Test
    void anEvaluationTheRunLogGateTurnsAwayLeavesItsReasonButABackoffWaitDoesNot() {
        f.register("retry: {maxAttempts: 1}\n");
        f.provider.runLogs().update(new RunLogKey("orders", Fixture.DATE, "daily"), c -> failedOnce());

        JsonNode response =
                f.call(f.request(OrchestratorAction.CHECK_RUN_LOG, Map.of("replay", false, "markerSource", "manual")));

        assertThat(response.get("result").asText()).isEqualTo("skip");
        assertThat(f.events(EventKind.EVALUATION_SKIPPED)).singleElement().satisfies(e -> {
            assertThat(e.message()).isEqualTo(response.get("reason").asText());
            assertThat(e.details())
                    .containsEntry("runLogStatus", "FAILED")
                    .containsEntry("gate", OrchestratorAction.CHECK_RUN_LOG.wireName());
        });

        f.register("retry: {maxAttempts: 3, backoffSeconds: 600}\n");
        JsonNode backoff =
                f.call(f.request(OrchestratorAction.CHECK_RUN_LOG, Map.of("replay", false, "markerSource", "manual")));
        assertThat(backoff.get("payload").get("retryAfterSeconds").asLong()).isPositive();
        assertThat(f.events(EventKind.EVALUATION_SKIPPED))
                .as("waiting out a backoff is no skip")
                .hasSize(1);
        assertThat(f.alerts.sent).isEmpty();
    }

    @Test
    void aReadyHolderLeavesEvaluationSoMarkersForTheDayNoLongerGetAbsorbed() {
        LockKey key = holderWithAReportedRound();

        f.call(f.request(
                OrchestratorAction.CHECK_READINESS, "run-1", Map.of("traitResults", Fixture.allRequired("FAIL"))));
        assertThat(f.provider.locks().holder(key).orElseThrow().evaluatesAgainAfter(Fixture.T0))
                .as("still NOT READY")
                .isTrue();
        f.call(f.request(
                OrchestratorAction.CHECK_READINESS,
                "run-1",
                Map.of(
                        "traitResults",
                        Fixture.allRequired("PASS"),
                        "reportedRound",
                        Map.of("result", "proceed", "payload", Map.of("exhausted", false)))));

        assertThat(f.provider.locks().holder(key).orElseThrow().evaluatesAgainAfter(Fixture.T0))
                .isFalse();
    }

    @Test
    void aReadyRoundAfterAPlannedRetryWithdrawsTheRetrysReport() {
        LockKey key = holderWithAReportedRound();
        Map<String, Object> afterRetry = new java.util.HashMap<>();
        afterRetry.put("traitResults", Fixture.allRequired("PASS"));
        afterRetry.put("reportedRound", null);
        afterRetry.put("plannedRetry", Map.of("result", "proceed", "payload", Map.of("retry", true)));

        f.call(f.request(OrchestratorAction.CHECK_READINESS, "run-1", afterRetry));

        assertThat(f.provider.locks().holder(key).orElseThrow().evaluatesAgainAfter(Fixture.T0))
                .isFalse();
    }

    @Test
    void aHolderReadyInItsFirstRoundHasNoReportToWithdrawAndLeavesTheLockAlone() {
        // Reported behind the machine's back: the machine says no round was reported, so the lock is not written.
        LockKey key = holderWithAReportedRound();
        Map<String, Object> firstRound = new java.util.HashMap<>();
        firstRound.put("traitResults", Fixture.allRequired("PASS"));
        firstRound.put("reportedRound", null);

        JsonNode ready = f.call(f.request(OrchestratorAction.CHECK_READINESS, "run-1", firstRound));

        assertThat(ready.get("result").asText()).isEqualTo("proceed");
        assertThat(f.provider.locks().holder(key).orElseThrow().evaluatesAgainAfter(Fixture.T0))
                .isTrue();
    }

    private RunLog failedOnce() {
        var now = f.clock.instant();
        return new RunLog(
                "orders",
                Fixture.DATE,
                "daily",
                RunLogStatus.FAILED,
                1,
                "run-0",
                "exec-0",
                "boom",
                FailureCategory.TRANSIENT,
                List.of(new RetryAttempt(1, RunLogStatus.FAILED, "run-0", "boom", FailureCategory.TRANSIENT, now, now)),
                false,
                now,
                null,
                now);
    }

    /** The pipeline's holder, with a NOT READY round reported to its lock (next round in 2 min, deadline in 1 h). */
    private LockKey holderWithAReportedRound() {
        f.register("");
        LockKey key = new LockKey("orders", "daily", Fixture.DATE);
        f.provider.locks().acquire(key, Fixture.EXECUTION, Duration.ofHours(5));
        f.provider
                .locks()
                .recordEvaluating(key, Fixture.EXECUTION, Fixture.T0.plusSeconds(120), Fixture.T0.plusSeconds(3600));
        return key;
    }
}
