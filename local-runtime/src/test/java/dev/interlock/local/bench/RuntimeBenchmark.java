package dev.interlock.local.bench;

import dev.interlock.local.demo.FakeJobServer;
import dev.interlock.local.runtime.LocalRuntime;
import dev.interlock.local.runtime.ProductionFunctions;
import dev.interlock.local.runtime.RuntimeOptions;
import dev.interlock.model.runtime.Environment;
import dev.interlock.runtime.aws.AwsClients;
import dev.interlock.statemachine.engine.ExecutionStatus;
import dev.interlock.statemachine.engine.ExecutionSummary;
import dev.interlock.statemachine.engine.HistoryEvent;
import dev.interlock.statemachine.engine.HistoryEventType;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Prints what the local runtime costs and how fast it moves (a benchmark, never a test): time from start to a
 * healthy API, marker-write → execution-start latency, upstream-completion → downstream-start latency (median/p95),
 * throughput of N pipelines through the happy path with instant jobs, and peak RSS. Run with
 * {@code ./mvnw -Pbenchmarks -pl local-runtime -am verify} (N from {@code -Dinterlock.bench.pipelines}, default 1000).
 */
public final class RuntimeBenchmark {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private RuntimeBenchmark() {}

    public static void main(String[] args) throws Exception {
        int pipelines = Integer.getInteger("interlock.bench.pipelines", 1000);
        int samples = Integer.getInteger("interlock.bench.samples", 30);
        // The functions log a JSON line per action; keep them out of the report.
        java.io.PrintStream report = System.out;
        Path functionLog = Path.of("target", "runtime-benchmark-functions.log");
        Files.createDirectories(functionLog.getParent());
        System.setOut(new java.io.PrintStream(Files.newOutputStream(functionLog), true));
        Instant t0 = Instant.now();
        try (LocalRuntime rt = LocalRuntime.start(
                        RuntimeOptions.ephemeral(null, 1.0), new ProductionFunctions(), s -> {}, a -> {});
                FakeJobServer jobs = FakeJobServer.start(0, rt.clock(), Duration.ZERO)) {
            rt.awaitHealthy(Duration.ofSeconds(60));
            long upMillis = Duration.between(t0, Instant.now()).toMillis();
            LocalDate today = LocalDate.now(rt.clock().withZone(ZoneOffset.UTC));

            // 1. marker write -> execution start, for excluded-free pipelines with one always-pass trait set.
            List<Long> markerLatency = new ArrayList<>();
            try (AwsClients aws = new AwsClients(Environment.of(
                    Map.of("INTERLOCK_ENDPOINT_DYNAMODB", rt.dynamoDbEndpoint().toString())))) {
                for (int i = 0; i < samples; i++) {
                    String id = "lat-" + i;
                    put(rt, "/pipelines/" + id, pipeline(id, null, jobs));
                    Instant written = Instant.now();
                    String sk = "MARKER#manual#bench-" + i;
                    aws.dynamoDb()
                            .putItem(b -> b.tableName(LocalRuntime.TABLE_NAME)
                                    .item(Map.of(
                                            "PK",
                                            AttributeValue.fromS("PIPELINE#" + id),
                                            "SK",
                                            AttributeValue.fromS(sk),
                                            "pipelineId",
                                            AttributeValue.fromS(id),
                                            "scheduleId",
                                            AttributeValue.fromS("daily"),
                                            "date",
                                            AttributeValue.fromS(today.toString()),
                                            "source",
                                            AttributeValue.fromS("manual"),
                                            "replay",
                                            AttributeValue.fromBool(false))));
                    ExecutionSummary started =
                            rt.awaitExecution(e -> e.name().startsWith(id + "_"), Duration.ofSeconds(60));
                    markerLatency.add(
                            Duration.between(written, started.startDate()).toMillis());
                }
            }

            // 2. upstream completion -> downstream execution start, over cascade pairs.
            List<Long> cascadeLatency = new ArrayList<>();
            for (int i = 0; i < samples; i++) {
                String up = "up-" + i;
                String down = "down-" + i;
                put(rt, "/pipelines/" + up, pipeline(up, null, jobs));
                put(rt, "/pipelines/" + down, pipeline(down, up, jobs));
                post(rt, "/pipelines/" + up + "/evaluations");
                ExecutionSummary downstream =
                        rt.awaitExecution(e -> e.name().startsWith(down + "_"), Duration.ofSeconds(60));
                ExecutionSummary upstream =
                        rt.awaitExecution(e -> e.name().startsWith(up + "_"), Duration.ofSeconds(60));
                Instant completed = rt.stateMachine().getExecutionHistory(upstream.executionArn()).stream()
                        .filter(h -> h.type() == HistoryEventType.LambdaFunctionSucceeded
                                || h.type() == HistoryEventType.TaskStateExited)
                        .filter(h -> stateName(rt, upstream, h).equals("LogCompleted"))
                        .map(HistoryEvent::timestamp)
                        .findFirst()
                        .orElseThrow();
                cascadeLatency.add(
                        Duration.between(completed, downstream.startDate()).toMillis());
            }

            // 3. throughput: N pipelines, all ready, instant jobs.
            for (int i = 0; i < pipelines; i++) {
                put(rt, "/pipelines/tp-" + i, pipeline("tp-" + i, null, jobs));
            }
            Instant begin = Instant.now();
            for (int i = 0; i < pipelines; i++) {
                post(rt, "/pipelines/tp-" + i + "/evaluations");
            }
            // Each execution's completion is awaited on its own future: no polling of the whole list.
            Instant deadline = Instant.now().plus(Duration.ofMinutes(20));
            long done = 0;
            for (int i = 0; i < pipelines; i++) {
                String prefix = "tp-" + i + "_";
                ExecutionSummary started =
                        rt.awaitExecution(e -> e.name().startsWith(prefix), Duration.between(Instant.now(), deadline));
                var finished = rt.stateMachine()
                        .execution(started.executionArn())
                        .await(Duration.between(Instant.now(), deadline));
                if (finished.status() == ExecutionStatus.SUCCEEDED) {
                    done++;
                }
            }
            double seconds = Duration.between(begin, Instant.now()).toMillis() / 1000.0;

            report.println();
            report.println("Local runtime benchmark (" + Runtime.getRuntime().availableProcessors() + " cores, load "
                    + load() + ")");
            report.printf("  start -> healthy API                      %6d ms%n", upMillis);
            report.printf(
                    "  marker write -> execution start           median %4d ms  p95 %4d ms  (n=%d)%n",
                    pct(markerLatency, 50), pct(markerLatency, 95), markerLatency.size());
            report.printf(
                    "  upstream completed -> downstream started  median %4d ms  p95 %4d ms  (n=%d)%n",
                    pct(cascadeLatency, 50), pct(cascadeLatency, 95), cascadeLatency.size());
            report.printf(
                    "  happy path throughput                     %d of %d pipelines SUCCEEDED in %.1f s = %.1f executions/s%n",
                    done, pipelines, seconds, done / seconds);
            report.printf("  peak RSS                                  %s%n", peakRss());
            report.println("  (function logs: " + functionLog.toAbsolutePath() + ")");
        }
        System.exit(0);
    }

    private static String stateName(LocalRuntime rt, ExecutionSummary e, HistoryEvent h) {
        Map<Long, HistoryEvent> byId = rt.stateMachine().getExecutionHistory(e.executionArn()).stream()
                .collect(Collectors.toMap(HistoryEvent::id, x -> x));
        HistoryEvent cur = h;
        Set<String> entered = Set.of("TaskStateEntered");
        while (cur != null) {
            if (entered.contains(cur.type().name()) || cur.type() == HistoryEventType.TaskStateExited) {
                return new com.fasterxml.jackson.databind.ObjectMapper()
                        .valueToTree(cur.details())
                        .path("name")
                        .asText();
            }
            cur = byId.get(cur.previousEventId());
        }
        return "";
    }

    private static String pipeline(String id, String upstream, FakeJobServer jobs) {
        String upstreamTrait = upstream == null
                ? "  upstream-dependency: {evaluator: \"builtin:always-pass\"}\n"
                : "  upstream-dependency: {evaluator: \"builtin:upstream-run-log\", config: {upstreamPipeline: "
                        + upstream + "}}\n";
        return "name: " + id + "\narchetype: batch-ingestion\ntraits:\n" + upstreamTrait
                + "  source-freshness: {evaluator: \"builtin:always-pass\"}\n"
                + "  resource-availability: {evaluator: \"builtin:always-pass\"}\n"
                + "trigger: {type: http, url: \"" + jobs.endpoint() + "/jobs/" + id + "\"}\n";
    }

    private static void put(LocalRuntime rt, String path, String yaml) throws Exception {
        HttpResponse<String> r = HTTP.send(
                HttpRequest.newBuilder(URI.create(rt.apiEndpoint() + path))
                        .header("Content-Type", "application/yaml")
                        .PUT(HttpRequest.BodyPublishers.ofString(yaml))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() >= 300) {
            throw new IllegalStateException("PUT " + path + " -> " + r.statusCode() + " " + r.body());
        }
    }

    private static void post(LocalRuntime rt, String path) throws Exception {
        HttpResponse<String> r = HTTP.send(
                HttpRequest.newBuilder(URI.create(rt.apiEndpoint() + path))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() >= 300) {
            throw new IllegalStateException("POST " + path + " -> " + r.statusCode() + " " + r.body());
        }
    }

    private static long pct(List<Long> values, int p) {
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int idx = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, idx)));
    }

    private static String peakRss() throws IOException {
        return Files.readAllLines(Path.of("/proc/self/status")).stream()
                .filter(l -> l.startsWith("VmHWM"))
                .map(l -> l.replace("VmHWM:", "").trim())
                .findFirst()
                .orElse("n/a");
    }

    private static String load() throws IOException {
        return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    }
}
