package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;
import software.amazon.awssdk.services.sfn.model.HistoryEvent;
import software.amazon.awssdk.services.sfn.model.HistoryEventType;

/**
 * Through the real runtime: an operator backfills a range of days after a broken source was fixed.
 * Each day passes its own gate and runs as a replay that spends no rerun budget, at most {@code maxConcurrency} at a
 * time (seen in the executions' histories: never more than two days hold their locks at once); {@code missing} mode
 * leaves completed days alone and a dry run says why; a cancel lets running days finish and starts no pending one; a
 * backfill's completions wake no downstream unless asked; it ends with one summary event and alert.
 */
class BackfillEndToEndTest extends BrowserEndToEnd {

    /** A pipeline whose job is an Airflow DAG run taking {@code minutes} scaled minutes; ready at once. */
    private void airflowPipeline(String name, String dag, int minutes) {
        jobs.durationOf(dag, Duration.ofMinutes(minutes));
        putReadyPipelineWithoutRetry(name, "{type: airflow, url: \"" + jobs.endpoint() + "\", dagId: " + dag + "}");
    }

    private JsonNode backfill(String id) {
        return expect(200, "GET", "/backfills/" + id, null, null);
    }

    private JsonNode awaitBackfill(String id, String status) {
        return await(
                "backfill " + id + " " + status,
                () -> backfill(id),
                b -> b.path("status").asText().equals(status));
    }

    /**
     * When an execution certainly held its day's lock: from the moment {@code AcquireLock} answered (the lock was
     * written before) to the moment its {@code ReleaseLock} task was entered (the lock is deleted after). The next day
     * is started by the release itself, so it may start while the releasing task is still answering.
     */
    private record Held(String name, Instant from, Instant to) {}

    private Held held(ExecutionListItem e) {
        Instant acquired = null;
        Instant releasing = null;
        for (HistoryEvent h : aws.stepFunctions()
                .getExecutionHistoryPaginator(b -> b.executionArn(e.executionArn()))
                .events()) {
            if (h.type() == HistoryEventType.TASK_STATE_EXITED
                    && h.stateExitedEventDetails().name().equals("AcquireLock")
                    && acquired == null) {
                acquired = h.timestamp();
            }
            if (h.type() == HistoryEventType.TASK_STATE_ENTERED
                    && h.stateEnteredEventDetails().name().startsWith("ReleaseLock")) {
                releasing = h.timestamp();
            }
        }
        assertThat(acquired).as("%s acquired its lock", e.name()).isNotNull();
        return new Held(e.name(), acquired, releasing != null ? releasing : e.stopDate());
    }

    /** The most executions that held their days at the same moment. */
    private static int mostAtOnce(List<Held> held) {
        int most = 0;
        for (Held h : held) {
            int atOnce = 0;
            for (Held other : held) {
                if (!other.from().isAfter(h.from()) && other.to().isAfter(h.from())) {
                    atOnce++;
                }
            }
            most = Math.max(most, atOnce);
        }
        return most;
    }

    @Test
    void tenDaysRunTwoAtATimeEachThroughItsOwnGateWithoutSpendingTheRerunBudgetOrWakingDownstreams() {
        String id = "bf-ten";
        airflowPipeline(id, "bf_ten_dag", 10);
        putPipeline("""
                name: bf-ten-down
                archetype: batch-ingestion
                traits:
                  upstream-dependency: {evaluator: "builtin:upstream-run-log", config: {upstreamPipeline: bf-ten}}
                  source-freshness: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%s/jobs/bf-ten-down"}
                """.formatted(jobs.endpoint()));
        LocalDate from = today().minusDays(10);
        LocalDate to = today().minusDays(1);

        String started = printed(
                "backfill",
                id,
                "--from",
                from.toString(),
                "--to",
                to.toString(),
                "--max-concurrency",
                "2",
                "--reason",
                "source fixed after a 10-day outage");
        assertThat(started).contains("backfill ").contains(" of " + id + " started");
        String backfillId = started.replaceAll("(?s)^backfill (\\S+) of .*", "$1");
        assertThat(backfill(backfillId).path("maxConcurrency").asInt()).isEqualTo(2);

        JsonNode done = awaitBackfill(backfillId, "COMPLETED");
        assertThat(done.at("/counts/completed").asInt()).isEqualTo(10);
        assertThat(done.at("/counts/failed").asInt()).isZero();
        assertThat(done.path("days").findValuesAsText("status")).containsOnly("COMPLETED");
        assertThat(done.path("days").findValuesAsText("date").getFirst()).isEqualTo(from.toString());
        for (LocalDate d = from; !d.isAfter(to); d = d.plusDays(1)) {
            assertThat(runLogStatus(id, d, "daily")).as("run log of %s", d).isEqualTo("COMPLETED");
        }
        assertThat(jobs.received().stream()
                        .filter(r -> r.job().contains("bf_ten_dag"))
                        .count())
                .as("one DAG run per day")
                .isEqualTo(10);

        // Never more than two of its days held their locks at once, and two did: the concurrency was used.
        List<ExecutionListItem> executions = awaitExecutionsDone(id, 10);
        List<Held> held = new ArrayList<>();
        for (ExecutionListItem e : executions) {
            assertThat(input(e.executionArn()).path("markerSource").asText()).isEqualTo("backfill");
            held.add(held(e));
        }
        assertThat(mostAtOnce(held))
                .as("days holding their locks at once: %s", held)
                .isEqualTo(2);

        // One summary event and one alert; the days' own trail; the CLI's progress view.
        assertThat(eventsOf(id, "BACKFILL_REQUESTED")).singleElement().satisfies(e -> {
            assertThat(e.at("/details/requestedBy").asText()).isEqualTo("local");
            assertThat(e.path("message").asText()).contains("source fixed after a 10-day outage");
        });
        assertThat(await("the summary", () -> eventsOf(id, "BACKFILL_FINISHED"), l -> !l.isEmpty()))
                .singleElement()
                .satisfies(e -> assertThat(e.path("message").asText()).contains("10 completed, 0 failed, 0 skipped"));
        assertThat(await("the summary alert", () -> alertKinds(id), l -> l.contains("BACKFILL_FINISHED")).stream()
                        .filter("BACKFILL_FINISHED"::equals))
                .hasSize(1);
        assertThat(printed("backfill-status", backfillId))
                .contains("COMPLETED: 10 completed, 0 failed, 0 skipped, 0 running, 0 pending of 10")
                .containsPattern(from + "\\s+daily\\s+COMPLETED");
        assertThat(printed("backfills", "--pipeline", id)).contains(backfillId).contains("COMPLETED");

        // Without cascade the downstream was not woken: each completion says so.
        assertThat(eventsOf(id, "CASCADE_HELD")).hasSize(10);
        assertThat(executions("bf-ten-down")).isEmpty();
        assertThat(jobs.triggersOf("bf-ten-down")).isZero();

        // The rerun budget is untouched: an operator's rerun of a backfilled day is still accepted.
        expect(
                202,
                "POST",
                "/pipelines/" + id + "/reruns",
                "application/json",
                "{\"date\":\"" + to + "\",\"reason\":\"check the budget\"}");
    }

    @Test
    void missingModeSkipsCompletedDaysAndADryRunListsTheDaysAndWhyWithoutStartingAny() {
        String id = "bf-missing";
        airflowPipeline(id, "bf_missing_dag", 2);
        LocalDate from = today().minusDays(4);
        LocalDate to = today().minusDays(1);
        for (LocalDate done : List.of(from.plusDays(1), to)) {
            expect(
                    202,
                    "POST",
                    "/pipelines/" + id + "/reruns",
                    "application/json",
                    "{\"date\":\"" + done + "\",\"reason\":\"the day ran before the backfill\"}");
            await("day " + done + " completed", () -> runLogStatus(id, done, "daily"), "COMPLETED"::equals);
        }
        awaitExecutionsDone(id, 2);

        JsonNode dry = expect(
                200,
                "POST",
                "/pipelines/" + id + "/backfills",
                "application/json",
                "{\"from\":\"" + from + "\",\"to\":\"" + to + "\",\"mode\":\"missing\",\"dryRun\":true,"
                        + "\"reason\":\"what would run?\"}");
        assertThat(dry.path("dryRun").asBoolean()).isTrue();
        assertThat(dry.at("/counts/pending").asInt()).isEqualTo(2);
        assertThat(dry.at("/counts/skipped").asInt()).isEqualTo(2);
        assertThat(dry.path("days").get(1).path("status").asText()).isEqualTo("SKIPPED");
        assertThat(dry.path("days").get(1).path("reason").asText()).contains("completed already");
        assertThat(dry.path("days").get(0).path("reason").asText()).isEqualTo("never ran");
        assertThat(printed(
                        "backfill",
                        id,
                        "--from",
                        from.toString(),
                        "--to",
                        to.toString(),
                        "--dry-run",
                        "--reason",
                        "what would run?"))
                .contains("would run 2 day(s) and skip 2; nothing was started")
                .containsPattern(to + "\\s+daily\\s+SKIPPED\\s+-\\s+completed already");
        assertThat(executions(id)).as("a dry run starts nothing").hasSize(2);
        assertThat(eventsOf(id, "BACKFILL_REQUESTED"))
                .as("a dry run records nothing")
                .isEmpty();

        JsonNode started = expect(
                202,
                "POST",
                "/pipelines/" + id + "/backfills",
                "application/json",
                "{\"from\":\"" + from + "\",\"to\":\"" + to + "\",\"maxConcurrency\":4,\"reason\":\"fill the gaps\"}");
        JsonNode done = awaitBackfill(started.path("backfillId").asText(), "COMPLETED");
        assertThat(done.at("/counts/completed").asInt()).isEqualTo(2);
        assertThat(done.at("/counts/skipped").asInt()).isEqualTo(2);
        assertThat(awaitExecutionsDone(id, 4)).hasSize(4);
        assertThat(jobs.received().stream()
                        .filter(r -> r.job().contains("bf_missing_dag"))
                        .count())
                .isEqualTo(4);
    }

    @Test
    void aCancelLetsTheRunningDayFinishAndStartsNoPendingOne() {
        String id = "bf-cancel";
        airflowPipeline(id, "bf_cancel_dag", 30);
        LocalDate from = today().minusDays(5);
        JsonNode started = expect(
                202,
                "POST",
                "/pipelines/" + id + "/backfills",
                "application/json",
                "{\"from\":\"" + from + "\",\"to\":\"" + today().minusDays(1) + "\",\"reason\":\"slowly\"}");
        String backfillId = started.path("backfillId").asText();
        await(
                "the first day's job running",
                () -> jobs.received().stream()
                        .filter(r -> r.job().contains("bf_cancel_dag"))
                        .count(),
                n -> n == 1);

        String cancelled = printed("backfill-cancel", backfillId, "--reason", "wrong range");
        assertThat(cancelled).contains("CANCELLING").contains("1 running day(s) finish");
        JsonNode cancelling = backfill(backfillId);
        assertThat(cancelling.at("/counts/skipped").asInt()).isEqualTo(4);
        assertThat(cancelling.path("days").get(1).path("reason").asText()).isEqualTo("cancelled by local: wrong range");

        JsonNode done = awaitBackfill(backfillId, "CANCELLED");
        assertThat(done.at("/counts/completed").asInt()).isEqualTo(1);
        assertThat(done.path("cancelledBy").asText()).isEqualTo("local");
        assertThat(runLogStatus(id, from, "daily")).isEqualTo("COMPLETED");
        assertThat(jobs.received().stream()
                        .filter(r -> r.job().contains("bf_cancel_dag"))
                        .count())
                .as("no pending day started")
                .isEqualTo(1);
        assertThat(eventsOf(id, "BACKFILL_CANCELLED")).hasSize(1);
        assertThat(eventsOf(id, "BACKFILL_FINISHED"))
                .singleElement()
                .satisfies(e -> assertThat(e.path("status").asText()).isEqualTo("CANCELLED"));
        assertThat(runCli("backfill-cancel", backfillId).err())
                .contains("HTTP 409")
                .contains("nothing to cancel");
    }

    @Test
    void aPauseHoldsTheBackfillsPendingDaysAndAfterResumeTheWatchdogsTickCarriesItOn() {
        String id = "bf-paused";
        airflowPipeline(id, "bf_paused_dag", 10);
        LocalDate from = today().minusDays(3);
        JsonNode started = expect(
                202,
                "POST",
                "/pipelines/" + id + "/backfills",
                "application/json",
                "{\"from\":\"" + from + "\",\"to\":\"" + today().minusDays(1) + "\",\"reason\":\"catch up\"}");
        String backfillId = started.path("backfillId").asText();
        await(
                "the first day's job running",
                () -> jobs.received().stream()
                        .filter(r -> r.job().contains("bf_paused_dag"))
                        .count(),
                n -> n == 1);

        printed("pause", id, "--reason", "source maintenance");
        // The running day finishes; the pending ones wait for the pipeline to be resumed.
        await("the first day completed", () -> runLogStatus(id, from, "daily"), "COMPLETED"::equals);
        JsonNode held = await(
                "the first day settled",
                () -> backfill(backfillId),
                b -> b.at("/counts/completed").asInt() == 1);
        assertThat(held.path("status").asText()).isEqualTo("RUNNING");
        assertThat(held.at("/counts/pending").asInt()).isEqualTo(2);
        assertThat(held.at("/counts/running").asInt()).isZero();
        invokeWatchdog();
        assertThat(backfill(backfillId).at("/counts/pending").asInt())
                .as("a tick starts nothing while paused")
                .isEqualTo(2);
        assertThat(awaitExecutionsDone(id)).hasSize(1);
        // A second backfill of a paused pipeline is refused.
        assertThat(call(
                                "POST",
                                "/pipelines/" + id + "/backfills",
                                "application/json",
                                "{\"from\":\"" + from + "\",\"to\":\"" + from + "\",\"reason\":\"x\"}")
                        .status())
                .isEqualTo(409);

        printed("resume", id, "--reason", "maintenance over");
        invokeWatchdog(); // no day of it ended since: the tick is what moves it on
        JsonNode done = await(
                "the backfill completed",
                () -> backfill(backfillId),
                b -> b.path("status").asText().equals("COMPLETED"));
        assertThat(done.at("/counts/completed").asInt()).isEqualTo(3);
        assertThat(jobs.received().stream()
                        .filter(r -> r.job().contains("bf_paused_dag"))
                        .count())
                .isEqualTo(3);
    }

    @Test
    void failedDaysAreFailedWithTheirReasonAndTheRangePagesOnceNotOnceADay() {
        String id = "bf-failing";
        airflowPipeline(id, "bf_failing_dag", 2);
        jobs.failRunsOf("bf_failing_dag", true);
        JsonNode started = expect(
                202,
                "POST",
                "/pipelines/" + id + "/backfills",
                "application/json",
                "{\"from\":\"" + today().minusDays(3) + "\",\"to\":\"" + today().minusDays(1)
                        + "\",\"maxConcurrency\":3,\"reason\":\"try again\"}");
        JsonNode done = awaitBackfill(started.path("backfillId").asText(), "COMPLETED");
        assertThat(done.at("/counts/failed").asInt()).isEqualTo(3);
        assertThat(done.path("days").findValuesAsText("reason"))
                .allSatisfy(r -> assertThat(r).isNotBlank());
        List<JsonNode> alerts = await(
                "the summary alert",
                () -> alerts(id),
                l -> l.stream().anyMatch(a -> a.path("kind").asText().equals("BACKFILL_FINISHED")));
        assertThat(alerts)
                .filteredOn(a -> a.path("kind").asText().equals("BACKFILL_FINISHED"))
                .singleElement()
                .satisfies(a -> {
                    assertThat(a.path("level").asText()).isEqualToIgnoringCase("warning");
                    assertThat(a.path("message").asText()).contains("0 completed, 3 failed, 0 skipped of 3");
                });
        assertThat(alertKinds(id)).as("no page per failed day of the range").doesNotContain("RERUN_FAILED");
    }

    @Test
    void badRequestsNameTheirFieldsAndWriteNothing() {
        String id = "bf-bad";
        putReadyPipelineWithoutRetry(id, "{type: http, url: \"" + jobs.endpoint() + "/jobs/bf-bad\"}");
        Response bad = call(
                "POST",
                "/pipelines/" + id + "/backfills",
                "application/json",
                "{\"from\":\"2026-13-01\",\"to\":\"" + today().plusDays(3) + "\",\"mode\":\"some\","
                        + "\"maxConcurrency\":50,\"schedules\":[\"nightly\"],\"cascade\":\"yes\",\"frm\":1}");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.body().path("errors").findValuesAsText("path"))
                .contains("$.from", "$.mode", "$.maxConcurrency", "$.schedules[0]", "$.cascade", "$.frm", "$.reason");
        Response future = call(
                "POST",
                "/pipelines/" + id + "/backfills",
                "application/json",
                "{\"from\":\"" + today() + "\",\"to\":\"" + today().plusDays(3) + "\",\"reason\":\"x\"}");
        assertThat(future.status()).isEqualTo(400);
        assertThat(future.body().toString()).contains("is in the future");
        Response tooLong = call(
                "POST",
                "/pipelines/" + id + "/backfills",
                "application/json",
                "{\"from\":\"2020-01-01\",\"to\":\"" + today().minusDays(1) + "\",\"reason\":\"x\"}");
        assertThat(tooLong.status()).isEqualTo(400);
        assertThat(tooLong.body().toString()).contains("a backfill spans at most 366");
        assertThat(call("POST", "/pipelines/bf-nobody/backfills", "application/json", "{}")
                        .status())
                .isEqualTo(404);
        assertThat(call("GET", "/backfills/no-such-backfill", null, null).status())
                .isEqualTo(404);
        assertThat(expect(200, "GET", "/pipelines/" + id + "/backfills", null, null)
                        .path("items"))
                .isEmpty();
        assertThat(eventsOf(id, "BACKFILL_REQUESTED")).isEmpty();
    }
}
