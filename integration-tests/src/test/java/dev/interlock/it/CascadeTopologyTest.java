package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.local.demo.FakeJobServer;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/** Cascades beyond one edge: three levels, fan-out, a join of two upstreams, and hourly schedules kept apart. */
class CascadeTopologyTest extends EndToEnd {

    private String root(String name, String schedules) {
        return """
                name: %s
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%s/jobs/%s"}
                %s
                """.formatted(name, jobs.endpoint(), name, schedules);
    }

    /** Waits for {@code upstream} (and, if given, {@code second}) through builtin:upstream-run-log. */
    private String downstream(String name, String upstream, String second, String schedules) {
        String freshness = second == null
                ? "{evaluator: \"builtin:always-pass\"}"
                : "{evaluator: \"builtin:upstream-run-log\", config: {upstreamPipeline: " + second + "}}";
        return """
                name: %s
                archetype: batch-ingestion
                traits:
                  upstream-dependency: {evaluator: "builtin:upstream-run-log", config: {upstreamPipeline: %s}}
                  source-freshness: %s
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%s/jobs/%s"}
                evaluationIntervalSeconds: 60
                %s
                """.formatted(name, upstream, freshness, jobs.endpoint(), name, schedules);
    }

    @Test
    void aCascadeRunsDownThreeLevelsEachStartedByItsUpstream() {
        LocalDate date = today();
        putPipeline(root("l1-bronze", ""));
        putPipeline(downstream("l2-silver", "l1-bronze", null, ""));
        putPipeline(downstream("l3-gold", "l2-silver", null, ""));
        evaluate("l1-bronze", date);

        List<ExecutionListItem> gold = awaitExecutionsDone("l3-gold", 1);
        assertThat(gold.getFirst().status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        for (String p : List.of("l1-bronze", "l2-silver", "l3-gold")) {
            assertThat(executions(p))
                    .as(p)
                    .singleElement()
                    .satisfies(e -> assertThat(e.status()).isEqualTo(ExecutionStatus.SUCCEEDED));
            assertThat(runLogStatus(p, date, "daily")).as(p).isEqualTo("COMPLETED");
            assertThat(runs(p)).as(p).extracting(r -> r.path("status").asText()).containsExactly("COMPLETED");
            assertThat(jobs.triggersOf(p)).as(p).isEqualTo(1);
            assertThat(alerts(p)).as(p).isEmpty();
        }
        assertThat(input(executions("l2-silver").getFirst().executionArn())
                        .path("markerSource")
                        .asText())
                .isEqualTo("cascade");
        assertThat(input(gold.getFirst().executionArn()).path("markerSource").asText())
                .isEqualTo("cascade");
        assertThat(jobs.received())
                .extracting(FakeJobServer.Received::job)
                .containsSubsequence("l1-bronze", "l2-silver", "l3-gold");
        assertThat(eventsOf("l1-bronze", "CASCADE_NOTIFIED"))
                .singleElement()
                .satisfies(e -> assertThat(e.path("details").path("downstream"))
                        .extracting(JsonNode::asText)
                        .containsExactly("l2-silver"));
        assertThat(eventsOf("l2-silver", "CASCADE_NOTIFIED"))
                .singleElement()
                .satisfies(e -> assertThat(e.path("details").path("downstream"))
                        .extracting(JsonNode::asText)
                        .containsExactly("l3-gold"));
        // The last level has no downstream: it notifies nobody.
        assertThat(eventsOf("l3-gold", "CASCADE_NOTIFIED"))
                .noneMatch(e -> e.path("details").path("downstream").size() > 0);
    }

    @Test
    void oneUpstreamFansOutToEveryDownstream() {
        LocalDate date = today();
        putPipeline(root("fan-root", ""));
        putPipeline(downstream("fan-a", "fan-root", null, ""));
        putPipeline(downstream("fan-b", "fan-root", null, ""));
        putPipeline(downstream("fan-c", "fan-root", null, ""));
        evaluate("fan-root", date);

        for (String p : List.of("fan-a", "fan-b", "fan-c")) {
            List<ExecutionListItem> done = awaitExecutionsDone(p, 1);
            assertThat(done.getFirst().status()).as(p).isEqualTo(ExecutionStatus.SUCCEEDED);
            assertThat(input(done.getFirst().executionArn())
                            .path("markerSource")
                            .asText())
                    .isEqualTo("cascade");
            assertThat(runLogStatus(p, date, "daily")).as(p).isEqualTo("COMPLETED");
            assertThat(jobs.triggersOf(p)).as(p).isEqualTo(1);
        }
        assertThat(jobs.triggersOf("fan-root")).isEqualTo(1);
        assertThat(eventsOf("fan-root", "CASCADE_NOTIFIED"))
                .singleElement()
                .satisfies(e -> assertThat(e.path("details").path("downstream"))
                        .extracting(JsonNode::asText)
                        .containsExactly("fan-a", "fan-b", "fan-c"));
    }

    @Test
    void aDownstreamOfTwoUpstreamsTriggersOnceAfterBoth() {
        LocalDate date = today();
        putPipeline(root("join-left", ""));
        putPipeline(root("join-right", ""));
        putPipeline(downstream("join-down", "join-left", "join-right", ""));

        evaluate("join-left", date);
        // The left cascade starts join-down, which waits (NOT READY) for the right upstream.
        await("join-down NOT READY", () -> eventsOf("join-down", "READINESS_CHECKED"), l -> !l.isEmpty());
        assertThat(eventsOf("join-down", "READINESS_CHECKED"))
                .allMatch(e -> e.path("status").asText().equals("NOT_READY"));
        assertThat(jobs.triggersOf("join-down")).isZero();

        evaluate("join-right", date);
        List<ExecutionListItem> down = awaitExecutionsDone("join-down", 2);
        assertThat(down).allSatisfy(e -> assertThat(e.status()).isEqualTo(ExecutionStatus.SUCCEEDED));
        assertThat(down)
                .extracting(e -> input(e.executionArn()).path("markerSource").asText())
                .containsExactly("cascade", "cascade");
        // One of the two cascade executions triggers; the other finds the lock held or the day completed.
        assertThat(down)
                .filteredOn(e -> visited(e.executionArn()).contains("TriggerPipeline"))
                .hasSize(1);
        assertThat(jobs.triggersOf("join-down")).isEqualTo(1);
        List<String> order =
                jobs.received().stream().map(FakeJobServer.Received::job).toList();
        assertThat(order.indexOf("join-down"))
                .isGreaterThan(order.indexOf("join-right"))
                .isGreaterThan(order.indexOf("join-left"));
        assertThat(runLogStatus("join-down", date, "daily")).isEqualTo("COMPLETED");
        assertThat(runs("join-down")).extracting(r -> r.path("status").asText()).containsExactly("COMPLETED");
        assertThat(alerts("join-down")).isEmpty();
    }

    @Test
    void hourlySchedulesDoNotCrossTrigger() {
        LocalDate date = today();
        String hours = "schedules: [{name: h06}, {name: h07}]";
        putPipeline(root("hr-up", hours));
        putPipeline(downstream("hr-down", "hr-up", null, hours));
        evaluate("hr-up", date, "h06");

        List<ExecutionListItem> down = awaitExecutionsDone("hr-down", 1);
        assertThat(down.getFirst().name()).startsWith("hr-down_" + date + "_h06_");
        assertThat(down.getFirst().status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(runLogStatus("hr-down", date, "h06")).isEqualTo("COMPLETED");
        assertThat(runLogStatus("hr-down", date, "h07")).isEqualTo("none");
        assertThat(jobs.triggersOf("hr-down")).isEqualTo(1);

        // Asked for h07 explicitly, the downstream waits: the upstream's h06 completion does not count for h07.
        String h07 = evaluate("hr-down", date, "h07");
        await(
                "hr-down h07 NOT READY",
                () -> eventsOf("hr-down", "READINESS_CHECKED").stream()
                        .filter(e -> e.path("scheduleId").asText().equals("h07"))
                        .toList(),
                l -> l.size() >= 2);
        aws.stepFunctions()
                .stopExecution(
                        b -> b.executionArn(arnOf(h07)).error("Test.Stop").cause("h07 stays NOT READY"));
        assertThat(awaitDone(h07)).isEqualTo(ExecutionStatus.ABORTED);
        assertThat(eventsOf("hr-down", "READINESS_CHECKED"))
                .filteredOn(e -> e.path("scheduleId").asText().equals("h07"))
                .allMatch(e -> e.path("status").asText().equals("NOT_READY"));
        assertThat(visited(arnOf(h07))).doesNotContain("TriggerPipeline");
        assertThat(jobs.triggersOf("hr-down")).isEqualTo(1);
        assertThat(runLogStatus("hr-up", date, "h07")).isEqualTo("none");
        assertThat(executions("hr-up"))
                .singleElement()
                .satisfies(e -> assertThat(e.name()).contains("_h06_"));
    }
}
