package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.runtime.ExecutionEndRule;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * The evaluation lock as an on-call engineer meets it: one lock per (pipeline, schedule, date), markers that meet a
 * held lock absorbed or run after the holder, never dropped, the lock of a holder that ended without releasing it
 * released by Interlock, and the operator's release of a lock whose holder's end was not seen.
 */
class LockEndToEndTest extends EndToEnd {

    private String passing(String name, String extra) {
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

    /** Ready once {@code upstream} completed the same date, and re-evaluated every minute until then. */
    private String downstreamOf(String name, String upstream) {
        return """
                name: %s
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:upstream-run-log", config: {upstreamPipeline: %s}}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%s/jobs/%s"}
                evaluationIntervalSeconds: 60
                """.formatted(name, upstream, jobs.endpoint(), name);
    }

    /** A holder waiting on NOT READY, and the execution whose marker it absorbed (ended SUCCEEDED at once). */
    private record Holding(String holder, String absorbed) {}

    private Holding holderThatAbsorbedOneMarker(String pipeline, LocalDate date) {
        putPipeline(waitingForSensor(pipeline));
        String holder = evaluate(pipeline, date);
        awaitNotReady(pipeline);
        String absorbed = evaluate(pipeline, date);
        assertThat(awaitDone(absorbed)).isEqualTo(ExecutionStatus.SUCCEEDED);
        JsonNode lock = expect(200, "GET", lockPath(pipeline, "daily", date), null, null);
        assertThat(lock.path("owner").asText()).isEqualTo(holder);
        assertThat(lock.path("absorbed").asInt()).isEqualTo(1);
        return new Holding(holder, absorbed);
    }

    /** Aborts {@code holder} with the execution-end rule disabled, as if its status change had been lost. */
    private void abortUnseen(String holder) {
        rt.eventBus().disableRule(ExecutionEndRule.RULE_ID);
        try {
            aws.stepFunctions()
                    .stopExecution(b -> b.executionArn(arnOf(holder)).cause("aborted by the on-call engineer"));
            assertThat(awaitDone(holder)).isEqualTo(ExecutionStatus.ABORTED);
        } finally {
            rt.eventBus().enableRule(ExecutionEndRule.RULE_ID);
        }
    }

    private String lockPath(String pipeline, String schedule, LocalDate date) {
        return "/pipelines/" + pipeline + "/locks/" + schedule + "/" + date;
    }

    @Test
    void aNotReadyWaitForTodayDoesNotDropYesterdaysEvaluation() {
        LocalDate today = today();
        LocalDate yesterday = today.minusDays(1);
        putPipeline(passing("lk-up", ""));
        putPipeline(downstreamOf("lk-down", "lk-up"));
        String todays = evaluate("lk-down", today);
        awaitNotReady("lk-down");

        // Yesterday's upstream completes now; its cascade marker starts yesterday's downstream evaluation while
        // today's is still waiting for today's upstream.
        assertThat(awaitDone(evaluate("lk-up", yesterday))).isEqualTo(ExecutionStatus.SUCCEEDED);
        await("yesterday's downstream ran", () -> runLogStatus("lk-down", yesterday, "daily"), "COMPLETED"::equals);
        assertThat(jobs.triggersOf("lk-down")).isEqualTo(1);
        assertThat(status(arnOf(todays))).isEqualTo(ExecutionStatus.RUNNING);
        JsonNode todaysLock = expect(200, "GET", lockPath("lk-down", "daily", today), null, null);
        assertThat(todaysLock.path("owner").asText()).isEqualTo(todays);

        // Today's upstream completes: the waiting holder re-evaluates and runs today too.
        assertThat(awaitDone(evaluate("lk-up", today))).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(awaitDone(todays)).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(runLogStatus("lk-down", today, "daily")).isEqualTo("COMPLETED");
        assertThat(jobs.triggersOf("lk-down")).isEqualTo(2);
        awaitExecutionsDone("lk-down", executions("lk-down").size());
        assertThat(call("GET", lockPath("lk-down", "daily", today), null, null).status())
                .isEqualTo(404);
        assertThat(call("GET", lockPath("lk-down", "daily", yesterday), null, null)
                        .status())
                .isEqualTo(404);
    }

    @Test
    void aMarkerMeetingAHolderThatWaitsOnNotReadyIsAbsorbedWithAnEvent() {
        LocalDate date = today();
        putPipeline(waitingForSensor("lk-absorb"));
        String holder = evaluate("lk-absorb", date);
        awaitNotReady("lk-absorb");

        String second = evaluate("lk-absorb", date);
        assertThat(awaitDone(second)).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(visited(arnOf(second)))
                .containsExactly(
                        "InitDefaults", "CheckExclusion", "IsExcluded", "AcquireLock", "IsLockAcquired", "Done");
        List<JsonNode> absorbed = eventsOf("lk-absorb", "MARKER_ABSORBED");
        assertThat(absorbed).hasSize(1);
        assertThat(absorbed.getFirst().path("details").path("holder").asText()).isEqualTo(holder);
        assertThat(absorbed.getFirst().path("details").path("executionName").asText())
                .isEqualTo(second);
        assertThat(absorbed.getFirst().path("message").asText()).contains(holder, "NOT READY");

        // The holder does the work the absorbed marker asked for.
        sensor("lk-absorb-src", "{\"count\":5}");
        assertThat(awaitDone(holder)).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(runLogStatus("lk-absorb", date, "daily")).isEqualTo("COMPLETED");
        assertThat(jobs.triggersOf("lk-absorb")).isEqualTo(1);
    }

    @Test
    void aRerunWhileTheHolderMonitorsRunsAtOnceBecauseMonitoringHoldsNoLock() {
        LocalDate date = today();
        putPipeline(passing("lk-mon", "monitoring: {enabled: true, duration: 15m}"));
        String holder = evaluate("lk-mon", date);
        await("first run completed", () -> runLogStatus("lk-mon", date, "daily"), "COMPLETED"::equals);
        assertThat(status(arnOf(holder))).as("the holder still monitors").isEqualTo(ExecutionStatus.RUNNING);

        JsonNode accepted = expect(
                202,
                "POST",
                "/pipelines/lk-mon/reruns",
                "application/json",
                "{\"date\":\"" + date + "\",\"reason\":\"backfill while monitoring\"}");
        String rerun = accepted.path("executionName").asText();

        assertThat(awaitDone(rerun)).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(awaitDone(holder)).isEqualTo(ExecutionStatus.SUCCEEDED);
        // The holder released the day's lock before its first monitoring wait: the rerun takes it at once.
        assertThat(visited(arnOf(rerun)))
                .doesNotContain("WaitForLock")
                .containsSubsequence(
                        "AcquireLock",
                        "IsLockAcquired",
                        "CheckRunLog",
                        "ResolvePipeline",
                        "TriggerPipeline",
                        "LogCompleted");
        assertThat(jobs.triggersOf("lk-mon")).isEqualTo(2);
        JsonNode log = runLog("lk-mon", date, "daily");
        assertThat(log.path("retryHistory"))
                .extracting(h -> h.path("status").asText())
                .containsExactly("COMPLETED", "COMPLETED");
        assertThat(eventsOf("lk-mon", "MARKER_DEFERRED"))
                .as("nothing waited for the monitoring holder")
                .isEmpty();
    }

    /**
     * An execution aborted while it holds its day's lock runs no further state, so nothing of the machine releases the
     * lock: Interlock does, on the execution's status change, and hands on the marker the holder had absorbed.
     */
    @Test
    void anAbortedHoldersLockIsReleasedByInterlockAndTheWorkItAbsorbedRuns() {
        LocalDate date = today();
        Holding held = holderThatAbsorbedOneMarker("lk-ended", date);
        String holder = held.holder();
        String absorbed = held.absorbed();

        aws.stepFunctions().stopExecution(b -> b.executionArn(arnOf(holder)).cause("aborted by the on-call engineer"));
        assertThat(awaitDone(holder)).isEqualTo(ExecutionStatus.ABORTED);

        JsonNode audit = await(
                        "the aborted holder's lock released by Interlock",
                        () -> eventsOf("lk-ended", "LOCK_RELEASED"),
                        l -> !l.isEmpty())
                .getFirst();
        assertThat(audit.path("details").path("previousHolder").asText()).isEqualTo(holder);
        assertThat(audit.path("details").path("releasedBy").asText()).isEqualTo("interlock (execution end)");
        assertThat(audit.path("details").path("executionStatus").asText()).isEqualTo("ABORTED");
        assertThat(audit.path("details").path("reason").asText()).contains("aborted by the on-call engineer");
        List<String> successors = await(
                "the absorbed marker handed on to a new execution",
                () -> executions("lk-ended").stream()
                        .map(ExecutionListItem::name)
                        .filter(n -> !n.equals(holder) && !n.equals(absorbed))
                        .toList(),
                l -> !l.isEmpty());
        assertThat(successors).hasSize(1);

        // The successor evaluates the day again, as the holder did, until the data lands.
        JsonNode arrival = expect(200, "PUT", "/sensors/lk-ended-src", "application/json", "{\"count\":5}");
        assertThat(awaitDone(successors.getFirst())).isEqualTo(ExecutionStatus.SUCCEEDED);
        for (JsonNode started : arrival.path("evaluations")) {
            assertThat(awaitDone(started.path("executionName").asText())).isEqualTo(ExecutionStatus.SUCCEEDED);
        }
        assertThat(runLogStatus("lk-ended", date, "daily")).isEqualTo("COMPLETED");
        assertThat(jobs.triggersOf("lk-ended")).isEqualTo(1);
        assertThat(alerts("lk-ended"))
                .as("an abort is the operator's own act: recorded, not alerted")
                .noneMatch(a -> a.path("kind").asText().equals("EXECUTION_ERROR"));
    }

    /** When Interlock does not see the end (its rule disabled, the event lost), the on-call engineer releases the lock. */
    @Test
    void anOperatorReleasesTheLockOfAnAbortedHolderWhoseEndWasNotSeenAndTheWorkItAbsorbedRuns() {
        LocalDate date = today();
        String holder = holderThatAbsorbedOneMarker("lk-stuck", date).holder();

        // The on-call engineer aborts the holder while the execution-end rule is disabled: its lock outlives it.
        abortUnseen(holder);
        assertThat(expect(200, "GET", lockPath("lk-stuck", "daily", date), null, null)
                        .path("owner")
                        .asText())
                .isEqualTo(holder);

        JsonNode released =
                expect(200, "DELETE", lockPath("lk-stuck", "daily", date) + "?reason=holder%20aborted", null, null);
        assertThat(released.path("released").asBoolean()).isTrue();
        assertThat(released.path("previousHolder").asText()).isEqualTo(holder);
        String reEmitted = released.path("reEmittedExecution").asText();
        assertThat(reEmitted)
                .as("the absorbed marker is handed on, since its holder never did the work")
                .isNotBlank();
        JsonNode audit = eventsOf("lk-stuck", "LOCK_RELEASED").getFirst();
        assertThat(audit.path("details").path("previousHolder").asText()).isEqualTo(holder);
        assertThat(audit.path("details").path("releasedBy").asText()).isNotBlank();
        assertThat(audit.path("details").path("reason").asText()).isEqualTo("holder aborted");

        // The data's arrival starts an evaluation of its own (sensor-driven readiness): it finds the day done or meets
        // the re-emitted one's lock; either way it must have ended before the lock can be asked about.
        JsonNode arrival = expect(200, "PUT", "/sensors/lk-stuck-src", "application/json", "{\"count\":5}");
        assertThat(awaitDone(reEmitted)).isEqualTo(ExecutionStatus.SUCCEEDED);
        for (JsonNode started : arrival.path("evaluations")) {
            assertThat(awaitDone(started.path("executionName").asText())).isEqualTo(ExecutionStatus.SUCCEEDED);
        }
        assertThat(runLogStatus("lk-stuck", date, "daily")).isEqualTo("COMPLETED");
        assertThat(jobs.triggersOf("lk-stuck")).isEqualTo(1);
        JsonNode none = expect(404, "DELETE", lockPath("lk-stuck", "daily", date), null, null);
        assertThat(none.path("detail").asText()).contains("no lock");
    }

    /**
     * The hazard behind "release only a lock whose execution no longer runs": the aborted holder had started a job that
     * is still running. The next evaluation of the day must follow that job, never start a second one beside it.
     */
    @Test
    void anEvaluationAfterAnAbortedHolderFollowsTheJobItStartedInsteadOfStartingASecond() {
        LocalDate date = today();
        putPipeline("""
                name: lk-orphan
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: airflow, url: "%s", dagId: lk_orphan}
                pollIntervalSeconds: 60
                """.formatted(jobs.endpoint()));
        String holder = evaluate("lk-orphan", date);
        JsonNode started = await(
                        "the job running",
                        () -> runs("lk-orphan"),
                        l -> l.size() == 1
                                && l.getFirst().path("status").asText().equals("RUNNING"))
                .getFirst();

        // The on-call engineer aborts the holder mid-job (Interlock releases its lock), then asks for the day again.
        aws.stepFunctions().stopExecution(b -> b.executionArn(arnOf(holder)).cause("aborted by the on-call engineer"));
        assertThat(awaitDone(holder)).isEqualTo(ExecutionStatus.ABORTED);
        await(
                "the aborted holder's lock released",
                () -> call("GET", lockPath("lk-orphan", "daily", date), null, null)
                        .status(),
                status -> status == 404);
        String next = evaluate("lk-orphan", date);

        assertThat(awaitDone(next)).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(jobs.triggersOf("lk_orphan"))
                .as("the job the aborted holder started is the only one")
                .isEqualTo(1);
        assertThat(runs("lk-orphan")).singleElement().satisfies(r -> {
            assertThat(r.path("runId").asText()).isEqualTo(started.path("runId").asText());
            assertThat(r.path("status").asText()).isEqualTo("COMPLETED");
        });
        assertThat(runLogStatus("lk-orphan", date, "daily")).isEqualTo("COMPLETED");
        JsonNode adopted = eventsOf("lk-orphan", "RUN_ADOPTED").getFirst();
        assertThat(adopted.path("runId").asText())
                .isEqualTo(started.path("runId").asText());
        assertThat(adopted.path("details").path("startedBy").asText()).isEqualTo(holder);
        assertThat(adopted.path("details").path("executionName").asText()).isEqualTo(next);
        assertThat(eventsOf("lk-orphan", "TRIGGER_FIRED")).hasSize(1);
    }

    @Test
    void theCliReleasesALockAndBadRequestsAreRefusedWithTheirPath() {
        LocalDate date = today();
        putPipeline(waitingForSensor("lk-cli"));
        String holder = evaluate("lk-cli", date);
        awaitNotReady("lk-cli");
        abortUnseen(holder);

        Cli unlock = cli(
                "unlock",
                "lk-cli",
                "--schedule",
                "daily",
                "--date",
                date.toString(),
                "--reason",
                "aborted at 3 am",
                "--endpoint",
                rt.apiEndpoint().toString(),
                "--no-sigv4");
        assertThat(unlock.code()).as(unlock.err()).isZero();
        assertThat(unlock.out())
                .as("a sentence, not the API's JSON")
                .startsWith("released the lock of lk-cli schedule daily on " + date)
                .contains("held by    " + holder, "LOCK_RELEASED by ", ": aborted at 3 am")
                .doesNotContain("{");
        assertThat(eventsOf("lk-cli", "LOCK_RELEASED"))
                .singleElement()
                .satisfies(e ->
                        assertThat(e.path("details").path("reason").asText()).isEqualTo("aborted at 3 am"));
        assertThat(call("GET", lockPath("lk-cli", "daily", date), null, null).status())
                .isEqualTo(404);

        Cli again = cli(
                "unlock",
                "lk-cli",
                "--date",
                date.toString(),
                "--endpoint",
                rt.apiEndpoint().toString(),
                "--no-sigv4");
        assertThat(again.code()).isNotZero();
        assertThat(again.err()).contains("no lock");
        Cli badDate = cli(
                "unlock",
                "lk-cli",
                "--date",
                "2026-02-30",
                "--endpoint",
                rt.apiEndpoint().toString(),
                "--no-sigv4");
        assertThat(badDate.code()).isNotZero();
        assertThat(badDate.err()).contains("path.date");

        assertThat(expect(400, "DELETE", "/pipelines/lk-cli/locks/daily/yesterday", null, null)
                        .path("errors")
                        .get(0)
                        .path("path")
                        .asText())
                .isEqualTo("path.date");
        assertThat(expect(400, "DELETE", "/pipelines/lk-cli/locks/no%23such/" + date, null, null)
                        .path("errors")
                        .get(0)
                        .path("path")
                        .asText())
                .isEqualTo("path.scheduleId");
        assertThat(call("DELETE", "/pipelines/lk-nobody/locks/daily/" + date, null, null)
                        .status())
                .isEqualTo(404);
        JsonNode longReason =
                expect(400, "DELETE", lockPath("lk-cli", "daily", date) + "?reason=" + "x".repeat(1001), null, null);
        assertThat(longReason.path("errors").get(0).path("path").asText()).isEqualTo("query.reason");
    }
}
