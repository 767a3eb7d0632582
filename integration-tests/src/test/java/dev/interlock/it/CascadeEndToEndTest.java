package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.interlock.local.demo.FakeJobServer;
import dev.interlock.local.runtime.LocalRuntime;
import dev.interlock.local.runtime.ProductionFunctions;
import dev.interlock.local.runtime.RuntimeOptions;
import dev.interlock.model.runtime.Environment;
import dev.interlock.runtime.aws.AwsClients;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * register → evaluate → trigger → complete → cascade on the local runtime, driven only through its public endpoints
 * (the API, the Step Functions API, the fake job server), then a restart on the same data directory.
 */
class CascadeEndToEndTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();

    private static final String SILVER = """
            name: silver
            archetype: batch-ingestion
            traits:
              source-freshness: {evaluator: "builtin:sensor-freshness", config: {sensor: bronze, maxAgeSeconds: 3600}}
              upstream-dependency: {evaluator: "builtin:sensor-threshold", config: {sensor: bronze, field: partitions, op: gte, value: 24}}
              resource-availability: {evaluator: "builtin:sensor-threshold", config: {sensor: bronze, field: count, op: gte, value: 1000}}
            trigger: {type: http, url: "%s/jobs/silver-etl"}
            evaluationIntervalSeconds: 60
            """;
    private static final String GOLD = """
            name: gold
            archetype: batch-ingestion
            traits:
              upstream-dependency: {evaluator: "builtin:upstream-run-log", config: {upstreamPipeline: silver}}
              source-freshness: {evaluator: "builtin:always-pass"}
              resource-availability: {evaluator: "builtin:always-pass"}
            trigger: {type: airflow, url: "%s", dagId: gold_etl}
            pollIntervalSeconds: 30
            """;

    private JsonNode call(String method, URI uri, String contentType, String body, int expected)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri)
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(method + " " + uri + " -> " + r.body()).isEqualTo(expected);
        return r.body().isBlank() ? JSON.nullNode() : JSON.readTree(r.body());
    }

    private static <T> T await(String what, ThrowingSupplier<T> probe, Predicate<T> done) throws Exception {
        Instant deadline = Instant.now().plusSeconds(90);
        T v = probe.get();
        while (!done.test(v)) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError(what + " not reached; last: " + v);
            }
            Thread.onSpinWait();
            v = probe.get();
        }
        return v;
    }

    interface ThrowingSupplier<T> {
        T get() throws Exception;
    }

    private String runLogStatus(URI api, String pipeline) throws Exception {
        JsonNode items = call("GET", URI.create(api + "/pipelines/" + pipeline + "/runlogs"), null, null, 200)
                .path("items");
        return items.isEmpty() ? "none" : items.get(0).path("status").asText();
    }

    @Test
    void aReadyUpstreamTriggersCompletesAndCascadesAndARestartKeepsTheRecords(@TempDir Path dataDir) throws Exception {
        // The day the sensor's arrival starts is the clock's: a fixed morning, so the cascade never straddles midnight.
        RuntimeOptions options =
                RuntimeOptions.ephemeral(dataDir, 120.0).withClockStart(EndToEnd.safeMorning(Instant.now()));
        Instant stoppedAt;
        try (LocalRuntime rt = LocalRuntime.start(options, new ProductionFunctions(), s -> {}, a -> {});
                FakeJobServer jobs = FakeJobServer.start(0, rt.clock(), Duration.ofMinutes(2));
                AwsClients aws = new AwsClients(Environment.of(Map.of(
                        "INTERLOCK_ENDPOINT_STEPFUNCTIONS",
                        rt.stepFunctionsEndpoint().toString())))) {
            URI api = rt.apiEndpoint();
            call(
                    "PUT",
                    URI.create(api + "/pipelines/silver"),
                    "application/yaml",
                    SILVER.formatted(jobs.endpoint()),
                    201);
            call("PUT", URI.create(api + "/pipelines/gold"), "application/yaml", GOLD.formatted(jobs.endpoint()), 201);
            // Bronze's data lands: that alone starts silver's evaluation (no request, no watchdog tick).
            call(
                    "PUT",
                    URI.create(api + "/sensors/bronze"),
                    "application/json",
                    "{\"count\":1500,\"partitions\":24}",
                    200);

            await("gold completed", () -> runLogStatus(api, "gold"), "COMPLETED"::equals);

            assertThat(runLogStatus(api, "silver")).isEqualTo("COMPLETED");
            assertThat(jobs.triggersOf("silver-etl")).isEqualTo(1);
            assertThat(jobs.triggersOf("gold_etl")).isEqualTo(1);
            // The run log turns COMPLETED a few states before gold's execution ends (cascade, lock release): wait for
            // both.
            var executions = await(
                    "both executions finished",
                    () -> aws.stepFunctions()
                            .listExecutions(b -> b.stateMachineArn(rt.stateMachineArn()))
                            .executions(),
                    l -> l.size() == 2 && l.stream().noneMatch(e -> e.status() == ExecutionStatus.RUNNING));
            assertThat(executions).extracting(e -> e.name().split("_")[0]).containsExactlyInAnyOrder("silver", "gold");
            assertThat(executions).allSatisfy(e -> assertThat(e.status()).isEqualTo(ExecutionStatus.SUCCEEDED));
            String goldArn = executions.stream()
                    .filter(e -> e.name().startsWith("gold"))
                    .findFirst()
                    .orElseThrow()
                    .executionArn();
            JsonNode goldInput = JSON.readTree(aws.stepFunctions()
                    .describeExecution(b -> b.executionArn(goldArn))
                    .input());
            assertThat(goldInput.path("markerSource").asText()).isEqualTo("cascade");
            String silverArn = executions.stream()
                    .filter(e -> e.name().startsWith("silver"))
                    .findFirst()
                    .orElseThrow()
                    .executionArn();
            assertThat(JSON.readTree(aws.stepFunctions()
                                    .describeExecution(b -> b.executionArn(silverArn))
                                    .input())
                            .path("markerSource")
                            .asText())
                    .isEqualTo("sensor");
            stoppedAt = rt.clock().instant();
        }

        try (LocalRuntime rt =
                LocalRuntime.start(options.withClockStart(stoppedAt), new ProductionFunctions(), s -> {}, a -> {})) {
            URI api = rt.apiEndpoint();
            JsonNode pipelines = call("GET", URI.create(api + "/pipelines"), null, null, 200);
            assertThat(pipelines.path("items"))
                    .extracting(p -> p.path("name").asText())
                    .containsExactlyInAnyOrder("silver", "gold");
            assertThat(runLogStatus(api, "gold")).isEqualTo("COMPLETED");
            assertThat(runLogStatus(api, "silver")).isEqualTo("COMPLETED");
        }
    }
}
