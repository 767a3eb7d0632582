package dev.interlock.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.store.RunLogKey;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class CheckRunLogTest {

    private final Fixture f = new Fixture();

    @BeforeEach
    void pipeline() {
        f.register("");
    }

    private JsonNode check(boolean replay) {
        return f.call(f.request(OrchestratorAction.CHECK_RUN_LOG, Map.of("replay", replay, "markerSource", "manual")));
    }

    private JsonNode fail(String category) {
        String runId = f.resolve();
        return f.call(f.request(
                OrchestratorAction.LOG_RESULT,
                runId,
                Map.of("status", "FAILED", "failureCategory", category, "message", "boom", "phase", "run")));
    }

    @Test
    void noRunLogProceedsWithTheFirstAttempt() {
        JsonNode response = check(false);

        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(response.get("payload").get("attemptNumber").asInt()).isEqualTo(1);
        assertThat(response.get("payload").get("retryAfterSeconds").asLong()).isZero();
        assertThat(response.get("payload").get("status").asText()).isEmpty();
    }

    @Test
    void aCompletedDayIsSkipped() {
        String runId = f.resolve();
        f.call(f.request(OrchestratorAction.LOG_RESULT, runId, Map.of("status", "COMPLETED")));

        JsonNode response = check(false);

        assertThat(response.get("result").asText()).isEqualTo("skip");
        assertThat(response.get("reason").asText()).isEqualTo("already completed");
        assertThat(response.get("payload").get("status").asText()).isEqualTo("COMPLETED");
        assertThat(response.get("payload").get("attemptNumber").asInt()).isZero();
    }

    @Test
    void aReplayOfACompletedDayProceedsWithAttemptsStartingAgain() {
        fail("TRANSIENT");
        f.clock.advance(Duration.ofMinutes(5));
        String runId = f.resolve();
        f.call(f.request(OrchestratorAction.LOG_RESULT, runId, Map.of("status", "COMPLETED")));

        JsonNode response = check(true);

        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(response.get("payload").get("attemptNumber").asInt()).isEqualTo(1);
        assertThat(response.get("payload").get("status").asText()).isEqualTo("COMPLETED");
    }

    @Test
    void notReadyEvaluationsAreNotAttempts() {
        String runId = f.resolve();
        for (int i = 0; i < 5; i++) {
            JsonNode readiness = f.call(f.request(
                    OrchestratorAction.CHECK_READINESS, runId, Map.of("traitResults", Fixture.allRequired("FAIL"))));
            assertThat(readiness.get("result").asText()).isEqualTo("skip");
        }

        JsonNode response = check(false);

        assertThat(f.runLog()).isEmpty();
        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(response.get("payload").get("attemptNumber").asInt()).isEqualTo(1);
    }

    @Test
    void aPendingEntryFromAnotherWriterIsNotAnAttempt() {
        f.provider
                .runLogs()
                .update(
                        new RunLogKey("orders", Fixture.DATE, "daily"),
                        current -> new RunLog(
                                "orders",
                                Fixture.DATE,
                                "daily",
                                RunLogStatus.PENDING,
                                0,
                                null,
                                null,
                                null,
                                null,
                                List.of(),
                                false,
                                Fixture.T0,
                                null,
                                Fixture.T0));

        JsonNode response = check(false);

        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(response.get("payload").get("attemptNumber").asInt()).isEqualTo(1);
        assertThat(response.get("payload").get("status").asText()).isEqualTo("PENDING");
    }

    @Test
    void insideTheBackoffItSkipsAndSaysWhenToComeBack() {
        fail("TRANSIENT");
        f.clock.advance(Duration.ofSeconds(10));

        JsonNode response = check(false);

        assertThat(response.get("result").asText()).isEqualTo("skip");
        assertThat(response.get("reason").asText()).isEqualTo("backoff period");
        assertThat(response.get("payload").get("retryAfterSeconds").asLong()).isEqualTo(20);
        assertThat(response.get("payload").get("status").asText()).isEqualTo("FAILED");
    }

    @Test
    void afterExactlyTheBackoffLogResultReportedItProceeds() {
        JsonNode failed = fail("TRANSIENT");
        f.clock.advance(Duration.ofSeconds(
                failed.get("payload").get("retryBackoffSeconds").asLong()));

        JsonNode response = check(false);

        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(response.get("payload").get("attemptNumber").asInt()).isEqualTo(2);
    }

    @Test
    void theBackoffGrowsWithTheAttempt() {
        fail("TRANSIENT");
        f.clock.advance(Duration.ofSeconds(30));
        JsonNode second = fail("TRANSIENT");
        f.clock.advance(Duration.ofSeconds(59));

        JsonNode response = check(false);

        assertThat(second.get("payload").get("retryBackoffSeconds").asLong()).isEqualTo(60);
        assertThat(response.get("reason").asText()).isEqualTo("backoff period");
        assertThat(response.get("payload").get("retryAfterSeconds").asLong()).isEqualTo(1);
    }

    @Test
    void exhaustedAttemptsAreSkipped() {
        for (int i = 0; i < 3; i++) {
            fail("TRANSIENT");
            f.clock.advance(Duration.ofHours(1));
        }

        JsonNode response = check(false);

        assertThat(response.get("result").asText()).isEqualTo("skip");
        assertThat(response.get("reason").asText()).isEqualTo("max attempts exceeded (3 of 3)");
    }

    @Test
    void aNonRetryableFailureIsSkipped() {
        fail("PERMANENT");
        f.clock.advance(Duration.ofHours(1));

        JsonNode response = check(false);

        assertThat(response.get("result").asText()).isEqualTo("skip");
        assertThat(response.get("reason").asText()).isEqualTo("non-retryable failure (PERMANENT)");
    }

    @Test
    void aCategoryNotListedAsRetryableIsSkipped() {
        f.register("retry:\n  retryableFailures: [TIMEOUT]\n");
        fail("TRANSIENT");
        f.clock.advance(Duration.ofHours(1));

        assertThat(check(false).get("reason").asText()).isEqualTo("non-retryable failure (TRANSIENT)");
    }

    @Test
    void anUnknownCategoryCountsAsTransientAndIsRetried() {
        JsonNode failed = fail("GREMLINS");
        f.clock.advance(Duration.ofSeconds(30));

        JsonNode response = check(false);

        assertThat(failed.get("payload").get("retryable").asBoolean()).isTrue();
        assertThat(f.runLog().orElseThrow().failureCategory().wireName()).isEqualTo("TRANSIENT");
        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(response.get("payload").get("attemptNumber").asInt()).isEqualTo(2);
    }

    @Test
    void aValidationExhaustedDayIsTriedAgainByTheNextMarkerWithoutUsingAnAttempt() {
        f.register("retry: {maxAttempts: 1}\n");
        JsonNode failed = fail("VALIDATION_EXHAUSTED");
        f.clock.advance(Duration.ofSeconds(1));

        JsonNode response = check(false);

        assertThat(failed.get("payload").get("retryable").asBoolean()).isFalse();
        assertThat(f.runLog().orElseThrow().attemptNumber()).isZero();
        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(response.get("payload").get("attemptNumber").asInt()).isEqualTo(1);
    }

    @Test
    void theRunLogOfTheExecutionDateIsJudgedNotToday() {
        String runId = f.resolve();
        f.call(f.request(OrchestratorAction.LOG_RESULT, runId, Map.of("status", "COMPLETED")));
        var otherDay = f.request(OrchestratorAction.CHECK_RUN_LOG, Map.of("replay", false, "markerSource", "manual"));
        otherDay.put("date", "2026-03-01");

        JsonNode response = f.call(otherDay);

        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(response.get("payload").get("status").asText()).isEmpty();
    }

    @Test
    void aFailedDayOfAPipelineThatVanishedIsAnError() {
        fail("TRANSIENT");
        f.provider.pipelines().delete("orders");

        JsonNode response = check(false);

        assertThat(response.get("result").asText()).isEqualTo("error");
        assertThat(response.get("reason").asText()).isEqualTo("pipeline orders not found");
    }
}
