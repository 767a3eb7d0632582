package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.local.aws.InvocationLog;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Metrics (docs/metrics.md): the functions print CloudWatch embedded-metric-format lines as a pipeline goes NOT READY
 * → ready → trigger → completion, and as a lying job fails and is alerted. Every line is valid EMF (namespace,
 * dimension sets naming fields that are present, every declared metric has a value); the counts per pipeline match
 * what the table recorded (rounds, triggers, alerts); {@code interlock metrics} answers the same numbers, aggregated
 * by the local runtime from the same lines.
 */
class MetricsEndToEndTest extends EndToEnd {

    /** An EMF line's metrics for one pipeline: name → values, and the alert kind when the line has one. */
    record Emitted(String pipelineId, String alertKind, Map<String, List<Double>> values) {}

    @Test
    void aDayFromNotReadyToCompletionAndALyingJobAreCountedPerPipeline() throws Exception {
        // What the in-process functions print to standard output, line by line, as Lambda's log group receives it.
        List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (AutoCloseable heard = InvocationLog.listen(l -> {
            if (l.startsWith("{\"_aws\"")) {
                lines.add(l);
            }
        })) {
            run(lines);
        }
    }

    private void run(List<String> lines) {
        LocalDate today = today();
        putPipeline("""
                name: mx-orders
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:sensor-threshold", config: {sensor: mx-orders-src, field: count, op: gte, value: 1}}
                trigger: {type: glue, jobName: mx-orders-job, arguments: {"--fake-duration-seconds": "90"}}
                evaluationIntervalSeconds: 60
                pollIntervalSeconds: 30
                sla: {completionDeadline: "23:30"}
                """);
        putPipeline("""
                name: mx-lies
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: glue, jobName: mx-lies-job, arguments: {"--fake-duration-seconds": "30", "--fake-error-message": "partition 7 skipped"}}
                pollIntervalSeconds: 30
                """);

        evaluate("mx-orders", today);
        awaitNotReady("mx-orders");
        sensor("mx-orders-src", "{\"count\":5}");
        evaluate("mx-lies", today);
        await("mx-orders COMPLETED", () -> runLogStatus("mx-orders", today, "daily"), "COMPLETED"::equals);
        await("mx-lies FAILED", () -> runLogStatus("mx-lies", today, "daily"), "FAILED"::equals);
        awaitExecutionsDone("mx-orders");
        awaitExecutionsDone("mx-lies");
        await("mx-lies alerted", () -> alertKinds("mx-lies"), k -> k.contains("RUN_FAILED"));

        // The lines, each valid EMF.
        assertThat(lines).as("EMF lines printed by the functions").isNotEmpty();
        List<Emitted> emitted = new ArrayList<>();
        for (String line : lines) {
            emitted.add(validEmf(line));
        }

        // NOT READY → ready → trigger → completion, counted as the table recorded it.
        List<JsonNode> rounds = eventsOf("mx-orders", "READINESS_CHECKED");
        long notReady = rounds.stream()
                .filter(e -> e.path("status").asText().equals("NOT_READY"))
                .count();
        assertThat(notReady).isPositive();
        Map<String, List<Double>> orders = of(emitted, "mx-orders");
        assertThat(sum(orders, "Evaluations")).isEqualTo(rounds.size());
        assertThat(sum(orders, "NotReadyRounds")).isEqualTo(notReady);
        assertThat(sum(orders, "Triggers")).isEqualTo(1);
        assertThat(sum(orders, "RunsCompleted")).isEqualTo(1);
        assertThat(sum(orders, "RunsFailed")).isZero();
        // The window opens at midnight UTC; the clock started at 06:00, so the day became ready hours after it.
        double sinceMidnight = rt.clock().instant().getEpochSecond()
                - today.atStartOfDay(ZoneOffset.UTC).toEpochSecond();
        assertThat(orders.get("TimeToReady"))
                .singleElement()
                .satisfies(s -> assertThat(s).isGreaterThan(6 * 3600.0).isLessThanOrEqualTo(sinceMidnight));
        assertThat(orders.get("JobDuration"))
                .singleElement()
                .satisfies(s -> assertThat(s).isGreaterThanOrEqualTo(90.0));
        assertThat(orders.get("SlaMargin"))
                .singleElement()
                .satisfies(s -> assertThat(s).isPositive());
        assertThat(sum(orders, "SlaMissed")).isZero();

        // The lying job: triggered once, failed, alerted RUN_FAILED once (as GET /alerts says).
        Map<String, List<Double>> lies = of(emitted, "mx-lies");
        assertThat(sum(lies, "Triggers")).isEqualTo(1);
        assertThat(sum(lies, "RunsFailed")).isEqualTo(1);
        assertThat(sum(lies, "NotReadyRounds")).isZero();
        long runFailedAlerts =
                alertKinds("mx-lies").stream().filter("RUN_FAILED"::equals).count();
        assertThat(emitted.stream()
                        .filter(e -> "mx-lies".equals(e.pipelineId()) && "RUN_FAILED".equals(e.alertKind()))
                        .mapToDouble(e -> e.values().get("Alerts").stream()
                                .mapToDouble(Double::doubleValue)
                                .sum())
                        .sum())
                .isEqualTo((double) runFailedAlerts);

        // interlock metrics: the same numbers, from the same lines.
        String json = printed("metrics", "-o", "json");
        JsonNode answer = readJson(json);
        JsonNode ordersAnswer = pipeline(answer, "mx-orders");
        assertThat(ordersAnswer.at("/metrics/Evaluations/sum").asDouble()).isEqualTo(rounds.size());
        assertThat(ordersAnswer.at("/metrics/NotReadyRounds/sum").asDouble()).isEqualTo(notReady);
        assertThat(ordersAnswer.at("/metrics/Triggers/sum").asDouble()).isEqualTo(1);
        assertThat(ordersAnswer.at("/metrics/JobDuration/max").asDouble())
                .isEqualTo(orders.get("JobDuration").getFirst());
        assertThat(ordersAnswer.at("/metrics/TimeToReady/count").asInt()).isEqualTo(1);
        JsonNode liesAnswer = pipeline(answer, "mx-lies");
        assertThat(liesAnswer.at("/alerts/RUN_FAILED").asDouble()).isEqualTo((double) runFailedAlerts);

        String table = printed("metrics", "--pipeline", "mx-orders");
        System.out.printf("interlock metrics --pipeline mx-orders:%n%s%n", table);
        assertThat(table)
                .contains("mx-orders")
                .doesNotContain("mx-lies")
                .containsPattern("Evaluations\\s+" + rounds.size() + "\\b")
                .containsPattern("NotReadyRounds\\s+" + notReady + "\\b")
                .containsPattern("Triggers\\s+1\\b");
    }

    /** Checks one line is valid EMF and answers what it says about which pipeline. */
    private static Emitted validEmf(String line) {
        JsonNode root = readJson(line);
        JsonNode aws = root.path("_aws");
        assertThat(aws.path("Timestamp").isIntegralNumber())
                .as("_aws.Timestamp in %s", line)
                .isTrue();
        JsonNode directives = aws.path("CloudWatchMetrics");
        assertThat(directives.isArray() && !directives.isEmpty())
                .as("CloudWatchMetrics in %s", line)
                .isTrue();
        Map<String, List<Double>> values = new LinkedHashMap<>();
        for (JsonNode d : directives) {
            assertThat(d.path("Namespace").asText()).isEqualTo("Interlock");
            assertThat(d.path("Dimensions").isArray())
                    .as("Dimensions in %s", line)
                    .isTrue();
            for (JsonNode set : d.path("Dimensions")) {
                for (JsonNode name : set) {
                    assertThat(root.path(name.asText()).isTextual())
                            .as("dimension %s has a value in %s", name, line)
                            .isTrue();
                }
            }
            assertThat(d.path("Metrics").isEmpty()).as("Metrics in %s", line).isFalse();
            for (JsonNode m : d.path("Metrics")) {
                String name = m.path("Name").asText();
                assertThat(name).isNotBlank();
                assertThat(m.path("Unit").asText()).isIn("Count", "Seconds");
                JsonNode value = root.path(name);
                assertThat(value.isNumber()).as("value of %s in %s", name, line).isTrue();
                values.computeIfAbsent(name, k -> new ArrayList<>()).add(value.asDouble());
            }
        }
        String pipelineId =
                root.path("PipelineId").isTextual() ? root.path("PipelineId").asText() : null;
        String kind =
                root.path("AlertKind").isTextual() ? root.path("AlertKind").asText() : null;
        return new Emitted(pipelineId, kind, values);
    }

    private static Map<String, List<Double>> of(List<Emitted> emitted, String pipelineId) {
        Map<String, List<Double>> all = new LinkedHashMap<>();
        emitted.stream()
                .filter(e -> pipelineId.equals(e.pipelineId()))
                .forEach(e -> e.values()
                        .forEach((k, v) ->
                                all.computeIfAbsent(k, x -> new ArrayList<>()).addAll(v)));
        return all;
    }

    private static double sum(Map<String, List<Double>> values, String name) {
        return values.getOrDefault(name, List.of()).stream()
                .mapToDouble(Double::doubleValue)
                .sum();
    }

    private static JsonNode pipeline(JsonNode answer, String id) {
        for (JsonNode p : answer.path("pipelines")) {
            if (p.path("pipelineId").asText().equals(id)) {
                return p;
            }
        }
        throw new AssertionError("interlock metrics --json has no " + id + ": " + answer);
    }

    private static JsonNode readJson(String text) {
        try {
            return JSON.readTree(text);
        } catch (java.io.IOException e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }
}
