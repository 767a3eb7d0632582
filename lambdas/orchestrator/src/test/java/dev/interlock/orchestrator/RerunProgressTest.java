package dev.interlock.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.keys.LockKey;
import dev.interlock.model.marker.Marker;
import dev.interlock.model.marker.MarkerSource;
import dev.interlock.model.rerun.Rerun;
import dev.interlock.model.rerun.RerunStatus;
import dev.interlock.model.run.RunLogStatus;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The rerun an execution serves follows the execution: PENDING → STARTED → COMPLETED | FAILED | SKIPPED. */
class RerunProgressTest {

    private static final String FIRST_EXECUTION = "orders_2026-03-02_daily_00000001";

    private final Fixture f = new Fixture();

    @BeforeEach
    void pipeline() {
        f.register("");
    }

    /** A rerun accepted for the fixture's day whose execution is {@code executionName}. */
    private void rerun(String rerunId, String executionName) {
        Marker marker = Marker.rerun(
                Fixture.PIPELINE, "daily", Fixture.DATE, MarkerSource.RERUN, rerunId, null, f.clock.instant());
        Rerun rerun = Rerun.requested(
                rerunId,
                Fixture.PIPELINE,
                "daily",
                Fixture.DATE,
                MarkerSource.MANUAL,
                null,
                "backfill",
                null,
                executionName,
                f.clock.instant(),
                Map.of());
        Event event = new Event(
                EventKind.RERUN_REQUESTED,
                Fixture.PIPELINE,
                "daily",
                Fixture.DATE,
                null,
                null,
                "PENDING",
                "backfill",
                Map.of("rerunId", rerunId),
                f.clock.instant());
        assertThat(f.provider.acceptRerun(rerun, marker, event, 10).accepted()).isTrue();
    }

    private Rerun stored(String rerunId) {
        return f.provider.reruns().get(rerunId).orElseThrow();
    }

    // Each step one second after the last, so the events it writes read back in order.

    private JsonNode checkRunLog(boolean replay) {
        f.clock.advance(Duration.ofSeconds(1));
        return f.call(f.request(
                OrchestratorAction.CHECK_RUN_LOG,
                Map.of("replay", replay, "markerSource", replay ? "rerun" : "manual")));
    }

    private JsonNode log(String runId, Map<String, ?> payload) {
        f.clock.advance(Duration.ofSeconds(1));
        return f.call(f.request(OrchestratorAction.LOG_RESULT, runId, payload));
    }

    private List<String> statusEvents() {
        return f.events(EventKind.RERUN_STATUS_CHANGED).stream()
                .map(Event::status)
                .toList();
    }

    /** The day's first execution (not the rerun's) completes it. */
    private void completeTheDay() {
        Map<String, Object> resolve = f.request(OrchestratorAction.RESOLVE_PIPELINE);
        resolve.put("executionName", FIRST_EXECUTION);
        String runId = f.call(resolve).get("payload").get("runId").asText();
        Map<String, Object> completed = f.request(OrchestratorAction.LOG_RESULT, runId, Map.of("status", "COMPLETED"));
        completed.put("executionName", FIRST_EXECUTION);
        f.call(completed);
        f.clock.advance(Duration.ofMinutes(10));
    }

    @Test
    void aRerunStartsWhenItsExecutionPassesTheGatesAndCompletesWithItsRun() {
        completeTheDay();
        rerun("rr1", Fixture.EXECUTION);

        assertThat(checkRunLog(true).get("result").asText()).isEqualTo("proceed");
        assertThat(stored("rr1").status()).isEqualTo(RerunStatus.STARTED);
        String runId = f.resolve();
        log(runId, Map.of("status", "COMPLETED"));
        f.call(f.request(OrchestratorAction.RELEASE_LOCK, Map.of("owner", Fixture.EXECUTION)));

        Rerun done = stored("rr1");
        assertThat(done.status()).isEqualTo(RerunStatus.COMPLETED);
        assertThat(done.rerunRunId()).isEqualTo(runId);
        assertThat(done.endedAt()).isEqualTo(f.clock.instant());
        assertThat(done.statusReason()).isNull();
        assertThat(statusEvents()).containsExactly("STARTED", "COMPLETED");
        assertThat(f.events(EventKind.RERUN_STATUS_CHANGED))
                .allSatisfy(e -> assertThat(e.details())
                        .containsEntry("rerunId", "rr1")
                        .containsEntry("executionName", Fixture.EXECUTION));
        assertThat(f.alerts.sent).isEmpty();
    }

    @Test
    void repeatedActionsMoveTheRerunOnce() {
        completeTheDay();
        rerun("rr1", Fixture.EXECUTION);

        checkRunLog(true);
        checkRunLog(true);
        String runId = f.resolve();
        log(runId, Map.of("status", "COMPLETED"));
        log(runId, Map.of("status", "COMPLETED"));

        assertThat(statusEvents()).containsExactly("STARTED", "COMPLETED");
    }

    @Test
    void onlyTheRerunOfThisExecutionMoves() {
        completeTheDay();
        rerun("mine", Fixture.EXECUTION);
        rerun("other", "orders_2026-03-02_daily_ffff0000");

        checkRunLog(true);

        assertThat(stored("mine").status()).isEqualTo(RerunStatus.STARTED);
        assertThat(stored("other").status()).isEqualTo(RerunStatus.PENDING);
    }

    @Test
    void anExcludedDaySkipsTheRerunWithTheReason() {
        f.register("exclusions: {dates: [\"" + Fixture.DATE + "\"]}\n");
        rerun("rr1", Fixture.EXECUTION);

        f.call(f.request(OrchestratorAction.CHECK_EXCLUSION));

        assertThat(stored("rr1").status()).isEqualTo(RerunStatus.SKIPPED);
        assertThat(stored("rr1").statusReason()).startsWith("excluded day");
        assertThat(statusEvents()).containsExactly("SKIPPED");
    }

    @Test
    void aRerunMeetingAHeldLockWaitsPendingAndPassesToTheSuccessorItsExecutionHandsOverTo() {
        String holder = "orders_2026-03-02_daily_11112222";
        f.provider.locks().acquire(new LockKey(Fixture.PIPELINE, "daily", Fixture.DATE), holder, Duration.ofHours(5));
        rerun("rr1", Fixture.EXECUTION);

        // Within its wait budget the replay waits for the lock: the rerun has not been decided yet.
        JsonNode waits = f.call(f.request(
                OrchestratorAction.ACQUIRE_LOCK,
                Map.of(
                        "owner",
                        Fixture.EXECUTION,
                        "executionTimeoutSeconds",
                        14400,
                        "executionStartTime",
                        f.clock.instant().toString(),
                        "replay",
                        true)));
        assertThat(waits.get("payload").get("waitSeconds").asLong()).isPositive();
        assertThat(stored("rr1").status()).isEqualTo(RerunStatus.PENDING);

        // Past it, the execution hands the marker over: the rerun goes with it, and the handing execution's end
        // (releaseLock) does not settle it.
        f.clock.advance(Duration.ofMinutes(31));
        f.call(f.request(
                OrchestratorAction.ACQUIRE_LOCK,
                Map.of(
                        "owner",
                        Fixture.EXECUTION,
                        "executionTimeoutSeconds",
                        14400,
                        "executionStartTime",
                        f.clock.instant().minus(Duration.ofMinutes(31)).toString(),
                        "replay",
                        true)));
        Rerun passed = stored("rr1");
        assertThat(passed.status()).isEqualTo(RerunStatus.PENDING);
        assertThat(passed.executionName()).isNotBlank().isNotEqualTo(Fixture.EXECUTION);
        f.call(f.request(OrchestratorAction.RELEASE_LOCK, Map.of("owner", Fixture.EXECUTION)));
        assertThat(stored("rr1").status()).isEqualTo(RerunStatus.PENDING);
        assertThat(statusEvents()).containsExactly("PENDING");

        // A retried hand-over finds the rerun already passed and writes nothing more.
        f.call(f.request(
                OrchestratorAction.ACQUIRE_LOCK,
                Map.of(
                        "owner",
                        Fixture.EXECUTION,
                        "executionTimeoutSeconds",
                        14400,
                        "executionStartTime",
                        f.clock.instant().minus(Duration.ofMinutes(31)).toString(),
                        "replay",
                        true)));
        assertThat(statusEvents()).containsExactly("PENDING");

        // The successor serves it from there.
        f.provider.locks().release(new LockKey(Fixture.PIPELINE, "daily", Fixture.DATE), holder);
        Map<String, Object> check =
                f.request(OrchestratorAction.CHECK_RUN_LOG, Map.of("replay", true, "markerSource", "deferred"));
        check.put("executionName", passed.executionName());
        f.call(check);
        assertThat(stored("rr1").status()).isEqualTo(RerunStatus.STARTED);
    }

    @Test
    void aRerunThatCannotBecomeReadyFailsButTheDayStaysCompleted() {
        completeTheDay();
        rerun("rr1", Fixture.EXECUTION);
        checkRunLog(true);
        String runId = f.resolve();

        JsonNode logged = log(
                runId,
                Map.of(
                        "status",
                        "FAILED",
                        "failureCategory",
                        "VALIDATION_EXHAUSTED",
                        "message",
                        "validation deadline passed before every required trait passed",
                        "phase",
                        "validation"));

        assertThat(logged.get("payload").get("retryable").asBoolean()).isFalse();
        assertThat(f.runLog().orElseThrow().status()).isEqualTo(RunLogStatus.COMPLETED);
        Rerun failed = stored("rr1");
        assertThat(failed.status()).isEqualTo(RerunStatus.FAILED);
        assertThat(failed.statusReason())
                .isEqualTo("VALIDATION_EXHAUSTED: validation deadline passed before every required trait passed");
        assertThat(statusEvents()).containsExactly("STARTED", "FAILED");
        assertThat(f.alerts.sent).extracting(a -> a.kind()).containsExactly(AlertKind.RERUN_FAILED);
        assertThat(f.alerts.sent.getFirst().details()).containsEntry("rerunId", "rr1");
        assertThat(f.events(EventKind.VALIDATION_EXHAUSTED))
                .singleElement()
                .satisfies(e -> assertThat(e.message()).endsWith("the day stays COMPLETED"));
    }

    @Test
    void aRetryableFailureKeepsTheRerunStartedThroughTheRetryAndTheLastFailureEndsIt() {
        f.register("retry: {maxAttempts: 2, backoffSeconds: 30}\n");
        completeTheDay();
        rerun("rr1", Fixture.EXECUTION);
        checkRunLog(true);
        String first = f.resolve();

        JsonNode retry = log(
                first,
                Map.of("status", "FAILED", "failureCategory", "TRANSIENT", "message", "HTTP 503", "phase", "trigger"));
        f.call(f.request(OrchestratorAction.RELEASE_LOCK, Map.of("owner", Fixture.EXECUTION)));

        assertThat(retry.get("payload").get("retryable").asBoolean()).isTrue();
        assertThat(stored("rr1").status()).isEqualTo(RerunStatus.STARTED);

        f.clock.advance(Duration.ofSeconds(30));
        checkRunLog(true);
        String second = f.resolve();
        log(
                second,
                Map.of(
                        "status",
                        "FAILED",
                        "failureCategory",
                        "TRANSIENT",
                        "message",
                        "HTTP 503 again",
                        "phase",
                        "trigger"));
        f.call(f.request(OrchestratorAction.RELEASE_LOCK, Map.of("owner", Fixture.EXECUTION)));

        assertThat(stored("rr1").status()).isEqualTo(RerunStatus.FAILED);
        assertThat(stored("rr1").statusReason()).isEqualTo("TRANSIENT: HTTP 503 again");
        assertThat(stored("rr1").rerunRunId()).isEqualTo(second);
        assertThat(statusEvents()).containsExactly("STARTED", "FAILED");
        assertThat(f.alerts.of(AlertKind.RERUN_FAILED)).hasSize(1);
    }

    @Test
    void theMachineSayingItIsAReplayStillMovesTheRerunWhenTheRunCompletesAndTheLockIsReleased() {
        completeTheDay();
        rerun("rr1", Fixture.EXECUTION);
        checkRunLog(true);
        String runId = f.resolve();

        log(runId, Map.of("status", "COMPLETED", "replay", true));
        f.call(f.request(OrchestratorAction.RELEASE_LOCK, Map.of("owner", Fixture.EXECUTION, "replay", true)));

        assertThat(stored("rr1").status()).isEqualTo(RerunStatus.COMPLETED);
        assertThat(statusEvents()).containsExactly("STARTED", "COMPLETED");
    }

    @Test
    void anExecutionThatIsNoReplayLooksForNoRerunWhenItLogsItsResultAndReleasesTheLock() {
        // Only a replay serves a rerun (a rerun's marker and its hand-overs are replays): the happy path is spared two
        // queries.
        String runId = f.resolve();
        CountingProvider counting = CountingProvider.around(f.provider);

        List<String> calls = counting.storeCallsDuring(() -> {
            f.callOver(
                    counting.provider(),
                    f.request(OrchestratorAction.LOG_RESULT, runId, Map.of("status", "COMPLETED", "replay", false)));
            f.callOver(
                    counting.provider(),
                    f.request(OrchestratorAction.RELEASE_LOCK, Map.of("owner", Fixture.EXECUTION, "replay", false)));
        });

        assertThat(calls).isNotEmpty().doesNotContain("reruns.forExecution");
    }

    @Test
    void anExecutionEndingWithoutAnOutcomeFailsItsRerunWhenItReleasesTheLock() {
        completeTheDay();
        rerun("rr1", Fixture.EXECUTION);
        checkRunLog(true);
        f.resolve();

        // The trigger threw: the machine alerts EXECUTION_ERROR and releases the lock (ReleaseLockAfterError).
        f.call(f.request(OrchestratorAction.RELEASE_LOCK, Map.of("owner", Fixture.EXECUTION)));

        assertThat(stored("rr1").status()).isEqualTo(RerunStatus.FAILED);
        assertThat(stored("rr1").statusReason()).contains("execution ended before the rerun had an outcome");
        assertThat(f.alerts.of(AlertKind.RERUN_FAILED)).hasSize(1);
    }

    @Test
    void aDryRunPipelineSkipsItsRerun() {
        f.register("dryRun: true\n");
        rerun("rr1", Fixture.EXECUTION);
        checkRunLog(true);
        String runId = f.resolve();

        f.call(f.request(
                OrchestratorAction.CHECK_READINESS, runId, Map.of("traitResults", Fixture.allRequired("PASS"))));

        assertThat(stored("rr1").status()).isEqualTo(RerunStatus.SKIPPED);
        assertThat(stored("rr1").statusReason()).startsWith("dry run");
    }

    @Test
    void aReplayWaitingOutABackoffKeepsItsRerunPendingUntilTheGatePasses() {
        String runId = f.resolve();
        log(
                runId,
                Map.of("status", "FAILED", "failureCategory", "TRANSIENT", "message", "HTTP 503", "phase", "trigger"));
        f.clock.advance(Duration.ofSeconds(5));
        rerun("rr1", Fixture.EXECUTION);

        JsonNode response = checkRunLog(true);

        // The machine waits retryAfterSeconds (WaitForRetryWindow) and asks again: nothing is decided yet.
        assertThat(response.get("result").asText()).isEqualTo("skip");
        long wait = response.get("payload").get("retryAfterSeconds").asLong();
        assertThat(wait).isPositive();
        assertThat(stored("rr1").status()).isEqualTo(RerunStatus.PENDING);

        f.clock.advance(Duration.ofSeconds(wait));
        assertThat(checkRunLog(true).get("result").asText()).isEqualTo("proceed");
        assertThat(stored("rr1").status()).isEqualTo(RerunStatus.STARTED);
    }

    @Test
    void anEvaluationThatIsNoReplayLooksNoRerunUp() {
        rerun("rr1", Fixture.EXECUTION);

        checkRunLog(false);

        assertThat(stored("rr1").status()).isEqualTo(RerunStatus.PENDING);
    }
}
