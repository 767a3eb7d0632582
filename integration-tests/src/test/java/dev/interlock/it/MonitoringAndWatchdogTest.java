package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * After completion and around the schedule: drift and late arrivals bounded by the rerun budget, manual reruns,
 * the watchdog's schedule markers and SLA_MISSED alerts, exclusions and dry runs.
 */
class MonitoringAndWatchdogTest extends EndToEnd {

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

    private static List<String> texts(JsonNode array) {
        return java.util.stream.StreamSupport.stream(array.spliterator(), false)
                .map(JsonNode::asText)
                .toList();
    }

    @Test
    void driftAfterCompletionRecordsLateArrivalsAndRerunsUntilTheBudgetIsSpent() {
        LocalDate date = today();
        sensor("mon-drift-src", "{\"count\":1500}");
        putPipeline("""
                name: mon-drift
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:sensor-threshold", config: {sensor: mon-drift-src, field: count, op: gte, value: 1000}}
                trigger: {type: http, url: "%s/jobs/mon-drift"}
                monitoring: {enabled: true, duration: 2h, driftField: actual, driftThreshold: 100}
                """.formatted(jobs.endpoint()));
        evaluate("mon-drift", date);

        // driftField names a field of the trait result's value: sensor-threshold reports the sensor reading as
        // `actual`.
        // Each run's baseline is taken before its trigger; more rows arriving after the trigger are a late arrival.
        // The budget is 3 reruns a day (MAX_RERUNS_PER_DAY): the fourth drift is recorded but not rerun.
        for (int run = 1; run <= 4; run++) {
            int expected = run;
            await("trigger " + run, () -> jobs.triggersOf("mon-drift"), n -> n >= expected);
            // The new rows land once the run completed (while it is monitored): the day is COMPLETED, so their arrival
            // starts no evaluation of its own; the monitoring sees them as drift.
            await(
                    "completion " + run,
                    () -> runLog("mon-drift", date, "daily").path("retryHistory"),
                    h -> java.util.stream.StreamSupport.stream(h.spliterator(), false)
                                    .filter(e -> e.path("status").asText().equals("COMPLETED"))
                                    .count()
                            >= expected);
            sensor("mon-drift-src", "{\"count\":" + (1500 + 500 * run) + "}");
            await(
                    "drift " + run + " handled",
                    () -> eventsOf("mon-drift", "RERUN_REQUESTED"),
                    l -> l.size() >= expected);
        }
        List<ExecutionListItem> executions = awaitExecutionsDone("mon-drift", 4);

        assertThat(executions).allSatisfy(e -> assertThat(e.status()).isEqualTo(ExecutionStatus.SUCCEEDED));
        assertThat(executions)
                .extracting(e -> input(e.executionArn()).path("markerSource").asText())
                .containsExactly("manual", "late-arrival", "late-arrival", "late-arrival");
        assertThat(executions.subList(1, 4))
                .allSatisfy(
                        e -> assertThat(input(e.executionArn()).path("replay").asBoolean())
                                .isTrue());
        assertThat(executions)
                .allSatisfy(e -> assertThat(visited(e.executionArn()))
                        .containsSubsequence(
                                "LogCompleted",
                                "MonitoringWait",
                                "MonitoringEvaluate",
                                "MonitoringCheckDrift",
                                "IsDrifted",
                                "HandleLateArrival",
                                "ReleaseLockAndSucceed",
                                "Done"));
        assertThat(eventsOf("mon-drift", "RERUN_REQUESTED"))
                .extracting(e -> e.path("status").asText())
                .containsExactly("PENDING", "PENDING", "PENDING", "SKIPPED");
        assertThat(eventsOf("mon-drift", "LATE_ARRIVAL_DETECTED"))
                .hasSize(4)
                .allSatisfy(e ->
                        assertThat(e.path("details").path("traitType").asText()).isEqualTo("resource-availability"));
        assertThat(jobs.triggersOf("mon-drift")).isEqualTo(4);
        assertThat(runs("mon-drift"))
                .extracting(r -> r.path("status").asText())
                .containsOnly("COMPLETED")
                .hasSize(4);
        assertThat(runLogStatus("mon-drift", date, "daily")).isEqualTo("COMPLETED");
        assertThat(alertKinds("mon-drift")).containsExactly("DRIFT_DETECTED");
        // Every late-arrival rerun is listed with its outcome, newest first; the one past the budget never ran.
        List<JsonNode> reruns = list("/pipelines/mon-drift/reruns");
        assertThat(reruns).extracting(r -> r.path("source").asText()).containsOnly("late-arrival");
        assertThat(reruns)
                .extracting(r -> r.path("status").asText())
                .containsExactly("SKIPPED", "COMPLETED", "COMPLETED", "COMPLETED");
        assertThat(reruns.getFirst().path("statusReason").asText()).contains("rerun budget spent");
        assertThat(reruns.subList(1, 4))
                .extracting(r -> r.path("executionName").asText())
                .containsExactly(
                        executions.get(3).name(),
                        executions.get(2).name(),
                        executions.get(1).name());

        // The API's reruns share the day's budget: refused, and nothing is written.
        JsonNode refused = expect(
                409,
                "POST",
                "/pipelines/mon-drift/reruns",
                "application/json",
                "{\"date\":\"" + date + "\",\"reason\":\"one more\"}");
        assertThat(refused.path("status").asInt()).isEqualTo(409);
        assertThat(executions("mon-drift")).hasSize(4);
    }

    @Test
    void manualRerunsViaTheApiTriggerAgainUntilTheBudgetIsSpent() {
        LocalDate date = today();
        putPipeline(passing("mon-rerun", ""));
        assertThat(awaitDone(evaluate("mon-rerun", date))).isEqualTo(ExecutionStatus.SUCCEEDED);

        for (int i = 1; i <= 3; i++) {
            JsonNode accepted = expect(
                    202,
                    "POST",
                    "/pipelines/mon-rerun/reruns",
                    "application/json",
                    "{\"date\":\"" + date + "\",\"scheduleId\":\"daily\",\"reason\":\"backfill " + i + "\"}");
            assertThat(accepted.path("rerun").path("status").asText()).isEqualTo("PENDING");
            assertThat(accepted.path("marker").path("source").asText()).isEqualTo("rerun");
            assertThat(awaitDone(accepted.path("executionName").asText())).isEqualTo(ExecutionStatus.SUCCEEDED);
            assertThat(jobs.triggersOf("mon-rerun")).isEqualTo(1 + i);
        }
        JsonNode problem = expect(
                409,
                "POST",
                "/pipelines/mon-rerun/reruns",
                "application/json",
                "{\"date\":\"" + date + "\",\"reason\":\"a fourth\"}");
        assertThat(problem.path("detail").asText()).isNotBlank();

        assertThat(executions("mon-rerun"))
                .hasSize(4)
                .allSatisfy(e -> assertThat(e.status()).isEqualTo(ExecutionStatus.SUCCEEDED));
        assertThat(runs("mon-rerun"))
                .extracting(r -> r.path("status").asText())
                .containsOnly("COMPLETED")
                .hasSize(4);
        JsonNode log = runLog("mon-rerun", date, "daily");
        assertThat(log.path("status").asText()).isEqualTo("COMPLETED");
        assertThat(log.path("retryHistory")).hasSize(4);
        assertThat(jobs.triggersOf("mon-rerun")).isEqualTo(4);
        assertThat(alerts("mon-rerun")).isEmpty();
    }

    @Test
    void theWatchdogWritesOneScheduleMarkerOnceTheWindowOpens() {
        LocalDate date = today();
        // The window opened at midnight, before the registration: catchUp asks for today's window all the same.
        putPipeline(passing("wd-after", "catchUp: true\nschedules: [{name: daily, after: \"00:00\"}]"));

        JsonNode first = invokeWatchdog();
        assertThat(first.path("result").asText()).isEqualTo("proceed");
        assertThat(texts(first.path("payload").path("markersWritten"))).contains("wd-after/daily/" + date);
        List<ExecutionListItem> runs = awaitExecutionsDone("wd-after", 1);
        assertThat(runs.getFirst().status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(input(runs.getFirst().executionArn()).path("markerSource").asText())
                .isEqualTo("schedule");
        assertThat(runLogStatus("wd-after", date, "daily")).isEqualTo("COMPLETED");

        // Ticking again (EventBridge every 5 minutes) writes nothing more for the day.
        JsonNode second = invokeWatchdog();
        assertThat(texts(second.path("payload").path("markersWritten"))).doesNotContain("wd-after/daily/" + date);
        rt.watchdogTick();
        assertThat(executions("wd-after")).hasSize(1);
        assertThat(jobs.triggersOf("wd-after")).isEqualTo(1);
        assertThat(alerts("wd-after")).isEmpty();
    }

    @Test
    void aMissedDeadlineAlertsSlaMissedOnce() {
        // A deadline a few minutes after the registration (deadlines that passed before it are never alerted). No
        // `after`: the watchdog writes no marker, so nothing runs and the deadline is missed.
        java.time.Instant deadline = rt.clock()
                .instant()
                .plus(java.time.Duration.ofMinutes(30))
                .truncatedTo(java.time.temporal.ChronoUnit.MINUTES);
        LocalDate date = LocalDate.ofInstant(deadline, java.time.ZoneOffset.UTC);
        String hhmm = java.time.LocalTime.ofInstant(deadline, java.time.ZoneOffset.UTC)
                .toString();
        putPipeline(passing("wd-late", "schedules: [{name: daily, deadline: \"" + hhmm + "\"}]"));
        await("the clock past " + deadline, () -> rt.clock().instant(), t -> t.isAfter(deadline));

        JsonNode first = invokeWatchdog();
        assertThat(texts(first.path("payload").path("slaMissed"))).contains("wd-late/daily/" + date);
        invokeWatchdog();
        rt.watchdogTick();

        List<JsonNode> alerts = alerts("wd-late");
        assertThat(alerts).extracting(a -> a.path("kind").asText()).containsExactly("SLA_MISSED");
        assertThat(alerts.getFirst().path("date").asText()).isEqualTo(date.toString());
        assertThat(alerts.getFirst().path("scheduleId").asText()).isEqualTo("daily");
        assertThat(executions("wd-late")).isEmpty();
        assertThat(runLogs("wd-late")).isEmpty();
        assertThat(jobs.triggersOf("wd-late")).isZero();
    }

    @Test
    void anExcludedDateGetsNoMarkerNoSlaAlertAndNoRun() {
        LocalDate date = today();
        putPipeline(passing(
                "wd-excluded",
                "catchUp: true\nschedules: [{name: daily, after: \"00:00\", deadline: \"00:01\"}]\n"
                        + "exclusions: {dates: [\"" + date + "\"]}"));

        JsonNode tick = invokeWatchdog();
        assertThat(texts(tick.path("payload").path("excluded"))).contains("wd-excluded/daily/" + date);
        assertThat(texts(tick.path("payload").path("markersWritten"))).doesNotContain("wd-excluded/daily/" + date);
        assertThat(texts(tick.path("payload").path("slaMissed"))).doesNotContain("wd-excluded/daily/" + date);

        // Asked explicitly, the execution stops at the exclusion gate.
        String name = evaluate("wd-excluded", date);
        assertThat(awaitDone(name)).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(visited(arnOf(name))).containsExactly("InitDefaults", "CheckExclusion", "IsExcluded", "Done");
        assertThat(executions("wd-excluded")).hasSize(1);
        assertThat(runLogs("wd-excluded")).isEmpty();
        assertThat(jobs.triggersOf("wd-excluded")).isZero();
        assertThat(alerts("wd-excluded")).isEmpty();
    }

    @Test
    void aDryRunPipelineRecordsWhatItWouldDoAndNeverTriggers() {
        LocalDate date = today();
        putPipeline(passing("dry-run", "dryRun: true\nschedules: [{name: daily, deadline: \"00:01\"}]"));
        String name = evaluate("dry-run", date);

        assertThat(awaitDone(name)).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(visited(arnOf(name)))
                .containsSubsequence("EvaluateTraits", "CheckReadiness", "IsReady", "ReleaseLockAndSucceed", "Done")
                .doesNotContain("TriggerPipeline");
        assertThat(eventsOf("dry-run", "DRY_RUN_WOULD_TRIGGER")).hasSize(1);
        assertThat(runs("dry-run")).extracting(r -> r.path("status").asText()).containsExactly("CANCELLED");
        // What it would do is an event; the day's run log stays empty, so the day counts neither done nor attempted.
        assertThat(runLogStatus("dry-run", date, "daily")).isEqualTo("none");
        // Never SLA_MISSED for a dry run, though its deadline passed without a completion.
        invokeWatchdog();
        assertThat(jobs.triggersOf("dry-run")).isZero();
        assertThat(jobs.received()).noneMatch(r -> r.job().equals("dry-run"));
        assertThat(alerts("dry-run")).isEmpty();
    }
}
