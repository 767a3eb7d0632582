package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * Monitoring lasts as long as configured, not as long as one execution: an {@code 8h} window (an execution has 4 h)
 * is watched by successor executions that take over the monitoring loop with the monitored run, its traits and its
 * baseline, one round per interval across the hand-overs. Rows growing 100 → 400 five hours after completion are
 * drift and rerun the day; a window without drift is watched to its configured end. Eight scaled hours take about
 * ninety seconds at the fixture's 300×.
 */
class MonitoringBeyondOneExecutionEndToEndTest extends EndToEnd {

    /** Per pipeline: from when (product time) its HTTP evaluator answers 400 rows instead of 100; absent: never. */
    private final Map<String, Instant> moreRowsFrom = new ConcurrentHashMap<>();
    /** Per pipeline: the product time of every evaluator request, in order. */
    private final Map<String, List<Instant>> requests = new ConcurrentHashMap<>();

    /** An HTTP evaluator for {@code pipeline}: PASS with {@code rows} 100, or 400 once {@link #moreRowsFrom} says. */
    private String evaluatorUrl(String pipeline) {
        requests.putIfAbsent(pipeline, new CopyOnWriteArrayList<>());
        return evaluator("/rows/" + pipeline, path -> {
            Instant now = rt.clock().instant();
            requests.get(pipeline).add(now);
            Instant from = moreRowsFrom.get(pipeline);
            int rows = from != null && !now.isBefore(from) ? 400 : 100;
            return new EvaluatorAnswer(200, "{\"status\":\"PASS\",\"value\":{\"rows\":" + rows + "}}");
        });
    }

    private String pipeline(String name) {
        return """
                name: %s
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "%s"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%s/jobs/%s"}
                schedules: [{name: daily, after: "00:01"}]
                monitoring: {enabled: true, duration: 8h, driftField: rows, driftThreshold: 50}
                """.formatted(name, evaluatorUrl(name), jobs.endpoint(), name);
    }

    private Instant completedAt(String pipeline, LocalDate date) {
        return Instant.parse(runLog(pipeline, date, "daily").path("completedAt").asText());
    }

    private List<JsonNode> monitoringHandOvers(String pipeline) {
        return eventsOf(pipeline, "EXECUTION_HANDED_OVER").stream()
                .filter(e -> e.path("details").path("phase").asText().equals("monitoring"))
                .toList();
    }

    @Test
    void rowsGrowingFiveHoursIntoAnEightHourMonitoringWindowAreDriftAndRerunTheDay() {
        LocalDate date = today();
        putPipeline(pipeline("mb-drift"));
        String first = evaluate("mb-drift", date);
        await("mb-drift completed", () -> runLogStatus("mb-drift", date, "daily"), "COMPLETED"::equals);
        Instant completed = completedAt("mb-drift", date);
        String completedRun = runLog("mb-drift", date, "daily").path("runId").asText();
        Instant drift = completed.plus(Duration.ofHours(5));
        moreRowsFrom.put("mb-drift", drift);

        await(
                "the late-arrival rerun started the job again",
                () -> jobs.triggersOf("mb-drift"),
                n -> n == 2,
                Duration.ofMinutes(5));

        // Seen by a successor of the execution that ran the day, in the round after the rows grew: not cut at 3.5 h.
        List<JsonNode> drifts = eventsOf("mb-drift", "MONITORING_DRIFT_DETECTED");
        assertThat(drifts).singleElement().satisfies(d -> {
            Instant at = Instant.parse(d.path("timestamp").asText());
            assertThat(at).isAfterOrEqualTo(drift).isBefore(drift.plus(Duration.ofMinutes(15)));
            assertThat(d.path("details").path("drifted").get(0).asText()).isEqualTo("source-freshness");
            assertThat(d.path("details").path("runId").asText()).isEqualTo(completedRun);
        });
        List<JsonNode> handOvers = monitoringHandOvers("mb-drift");
        assertThat(handOvers).isNotEmpty();
        assertThat(handOvers.getFirst().path("details").path("executionName").asText())
                .isEqualTo(first);
        String successor =
                handOvers.getFirst().path("details").path("successorExecution").asText();
        // The successor was started by a monitoring marker and carries the monitored run and its baseline.
        JsonNode input = input(arnOf(successor));
        assertThat(input.path("markerSource").asText()).isEqualTo("monitoring");
        assertThat(input.path("resolvePipeline").path("payload").path("runId").asText())
                .isEqualTo(completedRun);
        assertThat(input.path("traitResults").toString()).contains("\"rows\":100");
        assertThat(visited(arnOf(successor))).doesNotContain("AcquireLock", "ResolvePipeline", "TriggerPipeline");

        // The documented late-arrival handling: a rerun of the day that completes with the newer data.
        await(
                "the rerun completed",
                () -> {
                    JsonNode log = runLog("mb-drift", date, "daily");
                    return log.path("status").asText() + " " + log.path("runId").asText();
                },
                s -> s.startsWith("COMPLETED ") && !s.endsWith(" " + completedRun));
        assertThat(list("/pipelines/mb-drift/reruns"))
                .singleElement()
                .satisfies(r -> assertThat(r.path("status").asText()).isEqualTo("COMPLETED"));
        assertThat(alertKinds("mb-drift")).containsOnlyOnce("DRIFT_DETECTED").doesNotContain("EXECUTION_ERROR");
        assertThat(eventsOf("mb-drift", "MONITORING_COMPLETED").stream()
                        .map(e -> e.path("message").asText()))
                .noneMatch(m -> m.contains("not watched further"));
    }

    @Test
    void anEightHourWindowWithoutDriftIsWatchedToItsEndOneRoundPerIntervalAcrossExecutions() {
        LocalDate date = today();
        putPipeline(pipeline("mb-quiet"));
        String first = evaluate("mb-quiet", date);
        await("mb-quiet completed", () -> runLogStatus("mb-quiet", date, "daily"), "COMPLETED"::equals);
        Instant completed = completedAt("mb-quiet", date);

        List<JsonNode> ended = await(
                "monitoring ended",
                () -> eventsOf("mb-quiet", "MONITORING_COMPLETED"),
                l -> !l.isEmpty(),
                Duration.ofMinutes(5));
        assertThat(ended).singleElement().satisfies(e -> {
            assertThat(e.path("status").asText()).isEqualTo("EXPIRED");
            assertThat(Instant.parse(e.path("timestamp").asText()))
                    .isAfterOrEqualTo(completed.plus(Duration.ofHours(8)));
        });
        List<ExecutionListItem> executions =
                awaitExecutionsDone("mb-quiet", executions("mb-quiet").size());
        // 8 h of monitoring after completion need three executions of 4 h at least; each one hands over to the next.
        assertThat(executions).hasSizeGreaterThanOrEqualTo(3);
        assertThat(executions.getFirst().name()).isEqualTo(first);
        assertThat(executions).allSatisfy(e -> assertThat(e.status()).isEqualTo(ExecutionStatus.SUCCEEDED));
        List<JsonNode> handOvers = monitoringHandOvers("mb-quiet");
        assertEachHandedOverToTheNext(handOvers, executions, "monitoring");

        // One monitoring round per interval (300 s) from completion to the end, across the hand-overs: no duplicate
        // round (two within one interval) and no gap wider than a round inside an execution plus the successor's start.
        List<Instant> rounds = requests.get("mb-quiet").stream()
                .filter(t -> t.isAfter(completed))
                .toList();
        assertThat(rounds.getLast())
                .isAfterOrEqualTo(completed.plus(Duration.ofHours(7).plusMinutes(50)));
        List<Duration> gaps = new ArrayList<>();
        for (int i = 1; i < rounds.size(); i++) {
            gaps.add(Duration.between(rounds.get(i - 1), rounds.get(i)));
        }
        assertThat(gaps).allSatisfy(g -> assertThat(g).isGreaterThanOrEqualTo(Duration.ofSeconds(300)));
        assertThat(gaps).allSatisfy(g -> assertThat(g).isLessThanOrEqualTo(Duration.ofSeconds(300 * 2 + 120)));
        assertThat(eventsOf("mb-quiet", "MONITORING_DRIFT_DETECTED")).isEmpty();
        assertThat(jobs.triggersOf("mb-quiet")).as("the job ran once").isEqualTo(1);
        assertThat(alertKinds("mb-quiet")).isEmpty();
        assertThat(call("GET", "/pipelines/mb-quiet/locks/daily/" + date, null, null)
                        .status())
                .as("no lock is held while monitoring, nor after it")
                .isEqualTo(404);
    }
}
