package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.contract.OrchestratorAction;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * Reruns are observable: {@code GET /pipelines/{id}/reruns} and {@code interlock reruns} list every rerun, newest
 * first, with the status the workflow keeps true — PENDING, STARTED, then COMPLETED, FAILED or SKIPPED with its reason.
 */
class RerunsEndToEndTest extends EndToEnd {

    private String passing(String name, String extra) {
        return """
                name: %s
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:sensor-threshold", config: {sensor: %s-src, field: count, op: gte, value: 1000}}
                trigger: {type: http, url: "%s/jobs/%s"}
                %s
                """.formatted(name, name, jobs.endpoint(), name, extra);
    }

    private JsonNode requestRerun(String pipeline, LocalDate date, String reason) {
        JsonNode accepted = expect(
                202,
                "POST",
                "/pipelines/" + pipeline + "/reruns",
                "application/json",
                "{\"date\":\"" + date + "\",\"reason\":\"" + reason + "\"}");
        assertThat(accepted.path("rerun").path("status").asText()).isEqualTo("PENDING");
        assertThat(accepted.path("rerun").path("executionName").asText())
                .isEqualTo(accepted.path("executionName").asText());
        return accepted;
    }

    private List<JsonNode> rerunEvents(String pipeline, String rerunId) {
        return eventsOf(pipeline, "RERUN_STATUS_CHANGED").stream()
                .filter(e -> e.path("details").path("rerunId").asText().equals(rerunId))
                .toList();
    }

    @Test
    void apiRerunsAreListedNewestFirstAndFollowedFromPendingToCompleted() {
        LocalDate date = today();
        putPipeline(passing("rr-api", ""));
        sensor("rr-api-src", "{\"count\":1500}");
        assertThat(awaitDone(evaluate("rr-api", date))).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(list("/pipelines/rr-api/reruns")).isEmpty();

        JsonNode first = requestRerun("rr-api", date, "backfill one");
        assertThat(awaitDone(first.path("executionName").asText())).isEqualTo(ExecutionStatus.SUCCEEDED);
        JsonNode second = requestRerun("rr-api", date, "backfill two");
        assertThat(awaitDone(second.path("executionName").asText())).isEqualTo(ExecutionStatus.SUCCEEDED);

        // Newest first, one per page when asked, with the cursor of the other list routes.
        JsonNode page1 = expect(200, "GET", "/pipelines/rr-api/reruns?limit=1", null, null);
        assertThat(page1.path("items")).hasSize(1);
        assertThat(page1.path("items").get(0).path("rerunId").asText())
                .isEqualTo(second.path("rerun").path("rerunId").asText());
        assertThat(page1.path("nextCursor").asText()).isNotBlank();
        List<JsonNode> all = list("/pipelines/rr-api/reruns");
        assertThat(all)
                .extracting(r -> r.path("rerunId").asText())
                .containsExactly(
                        second.path("rerun").path("rerunId").asText(),
                        first.path("rerun").path("rerunId").asText());
        assertThat(all).allSatisfy(r -> {
            assertThat(r.path("status").asText()).isEqualTo("COMPLETED");
            assertThat(r.path("source").asText()).isEqualTo("manual");
            assertThat(r.path("rerunRunId").asText()).isNotBlank();
            assertThat(r.path("endedAt").asText()).isNotBlank();
        });
        assertThat(all.get(1).path("reason").asText()).isEqualTo("backfill one");
        // The run that served each rerun is the run the execution completed.
        assertThat(runs("rr-api"))
                .extracting(r -> r.path("runId").asText())
                .contains(
                        all.get(0).path("rerunRunId").asText(),
                        all.get(1).path("rerunRunId").asText());
        String firstId = first.path("rerun").path("rerunId").asText();
        assertThat(rerunEvents("rr-api", firstId))
                .extracting(e -> e.path("status").asText())
                .containsExactly("STARTED", "COMPLETED");

        // Step Functions repeating the last logResult (a Lambda retry) moves nothing and records nothing twice.
        String secondId = second.path("rerun").path("rerunId").asText();
        String secondRun = all.get(0).path("rerunRunId").asText();
        JsonNode again = invokeOrchestrator("""
                {"action":"%s","pipelineId":"rr-api","scheduleId":"daily","date":"%s","runId":"%s",
                 "executionName":"%s","payload":{"status":"COMPLETED","triggerMetadata":{}}}
                """.formatted(
                        OrchestratorAction.LOG_RESULT.wireName(),
                        date,
                        secondRun,
                        second.path("executionName").asText()));
        assertThat(again.path("result").asText()).isEqualTo("proceed");
        assertThat(rerunEvents("rr-api", secondId))
                .extracting(e -> e.path("status").asText())
                .containsExactly("STARTED", "COMPLETED");

        // The CLI lists the same, newest first.
        Cli cli = cli("reruns", "rr-api", "--endpoint", rt.apiEndpoint().toString(), "--no-sigv4");
        assertThat(cli.code()).as(cli.out() + cli.err()).isZero();
        assertThat(cli.out()).contains(secondId, firstId, "COMPLETED", "backfill two", "2 rerun(s)");
        assertThat(cli.out().indexOf(secondId)).isLessThan(cli.out().indexOf(firstId));
        assertThat(alerts("rr-api")).isEmpty();
    }

    @Test
    void aRerunOfAnExcludedDayIsSkippedWithTheReason() {
        LocalDate date = today();
        putPipeline(passing("rr-excluded", "exclusions: {dates: [\"" + date + "\"]}"));
        sensor("rr-excluded-src", "{\"count\":1500}");

        JsonNode accepted = requestRerun("rr-excluded", date, "operator asked");
        assertThat(awaitDone(accepted.path("executionName").asText())).isEqualTo(ExecutionStatus.SUCCEEDED);

        JsonNode rerun = await(
                        "rerun settled",
                        () -> list("/pipelines/rr-excluded/reruns"),
                        l -> !l.isEmpty()
                                && !l.getFirst().path("status").asText().equals("PENDING"))
                .getFirst();
        assertThat(rerun.path("status").asText()).isEqualTo("SKIPPED");
        assertThat(rerun.path("statusReason").asText()).contains("excluded day");
        assertThat(rerunEvents("rr-excluded", rerun.path("rerunId").asText()))
                .extracting(e -> e.path("status").asText())
                .containsExactly("SKIPPED");
        assertThat(jobs.triggersOf("rr-excluded")).isZero();
    }

    @Test
    void aRerunMeetingARunningEvaluationOfTheDayWaitsForItAndThenRuns() {
        LocalDate date = today();
        putPipeline(passing("rr-busy", ""));
        // The sensor's arrival starts the day's evaluation, which holds the day's lock while it waits for more data.
        sensor("rr-busy-src", "{\"count\":10}");
        String waiting = await(
                        "the day's lock held",
                        () -> call("GET", "/pipelines/rr-busy/locks/daily/" + date, null, null),
                        r -> r.status() == 200)
                .body()
                .path("owner")
                .asText();
        await(
                "rr-busy waiting",
                () -> {
                    try {
                        return visited(arnOf(waiting));
                    } catch (software.amazon.awssdk.services.sfn.model.ExecutionDoesNotExistException notStartedYet) {
                        return List.<String>of();
                    }
                },
                v -> v.contains("WaitBeforeReevaluation"));

        // A rerun is a replay: never absorbed by the holder, it waits for the lock, naming the holder, and stays
        // PENDING.
        requestRerun("rr-busy", date, "operator asked");
        List<JsonNode> deferred = await(
                "the rerun waiting for the lock", () -> eventsOf("rr-busy", "MARKER_DEFERRED"), e -> !e.isEmpty());
        assertThat(deferred.getFirst().path("message").asText()).contains(waiting);
        assertThat(list("/pipelines/rr-busy/reruns").getFirst().path("status").asText())
                .isEqualTo("PENDING");

        // The running evaluation does the day's work once the data lands; then the rerun runs the day again.
        sensor("rr-busy-src", "{\"count\":1500}");
        assertThat(awaitDone(waiting)).isEqualTo(ExecutionStatus.SUCCEEDED);
        await(
                "the rerun COMPLETED",
                () -> list("/pipelines/rr-busy/reruns")
                        .getFirst()
                        .path("status")
                        .asText(),
                "COMPLETED"::equals);
        assertThat(jobs.triggersOf("rr-busy")).isEqualTo(2);
        assertThat(runLogStatus("rr-busy", date, "daily")).isEqualTo("COMPLETED");
    }
}
