package dev.interlock.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.log.StructuredLog;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.store.memory.InMemoryProvider;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/** The API on an in-memory store with a fixed clock and counting ids; every store write is recorded. */
final class ApiFixture {

    static final Instant NOW = Instant.parse("2026-03-10T09:00:00Z");
    static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

    static final String PIPELINE = """
            {"name":"silver","archetype":"batch-ingestion",
             "traits":{"source-freshness":{"evaluator":"builtin:sensor-freshness","config":{"sensor":"orders","maxAgeSeconds":900}},
                       "upstream-dependency":{"evaluator":"builtin:upstream-run-log","config":{"upstreamPipeline":"bronze"}},
                       "resource-availability":{"evaluator":"builtin:always-pass"}},
             "trigger":{"type":"glue","jobName":"orders","arguments":{"--date":"${date}"}}}""";

    /** The upstream {@link #PIPELINE} waits for, registered in every fixture. */
    static final String UPSTREAM_JSON = """
            {"name":"bronze","archetype":"batch-ingestion",
             "traits":{"source-freshness":{"evaluator":"builtin:always-pass"},
                       "upstream-dependency":{"evaluator":"builtin:always-pass"},
                       "resource-availability":{"evaluator":"builtin:always-pass"}},
             "trigger":{"type":"glue","jobName":"bronze"}}""";

    static final PipelineConfig UPSTREAM = InterlockJson.read(UPSTREAM_JSON, PipelineConfig.class);

    static final ApiSettings SETTINGS = new ApiSettings(3, 2, RequestBody.DEFAULT_MAX_BYTES);

    final InMemoryProvider store;
    final RecordingProvider recording;
    final AtomicInteger ids = new AtomicInteger();
    final ByteArrayOutputStream logs = new ByteArrayOutputStream();
    final Api api;
    /** The state machine's executions the lock routes ask about: status by name, and the ones stopped. */
    final Map<String, String> executionStatus = new HashMap<>();

    final List<String> stopped = new ArrayList<>();

    ApiFixture() {
        this(SETTINGS);
    }

    ApiFixture(ApiSettings settings) {
        this(settings, CLOCK);
    }

    /** The API with its clock at {@code clock} (e.g. just before midnight somewhere). */
    ApiFixture(ApiSettings settings, Clock clock) {
        store = new InMemoryProvider(clock);
        store.pipelines().put(UPSTREAM); // registration refuses an upstream it does not know
        recording = new RecordingProvider(store);
        api = new Api(
                recording.provider(),
                clock,
                settings,
                () -> "id-" + ids.incrementAndGet(),
                new StructuredLog("api", new PrintStream(logs, true, StandardCharsets.UTF_8), clock),
                new HolderExecutions() {
                    @Override
                    public Optional<String> status(String executionName) {
                        return Optional.ofNullable(executionStatus.get(executionName));
                    }

                    @Override
                    public void stop(String executionName, String cause) {
                        stopped.add(executionName + ": " + cause);
                        executionStatus.put(executionName, "ABORTED");
                    }
                });
    }

    /** A pipeline document named {@code name} (the base pipeline renamed). */
    static String pipeline(String name) {
        return PIPELINE.replace("\"name\":\"silver\"", "\"name\":\"" + name + "\"");
    }

    Reply call(String method, String path) {
        return call(method, path, null, null, Map.of());
    }

    Reply call(String method, String path, String body) {
        return call(method, path, body, "application/json", Map.of());
    }

    Reply call(String method, String path, String body, String contentType, Map<String, String> query) {
        Map<String, String> headers = new HashMap<>();
        if (contentType != null) {
            headers.put("Content-Type", contentType);
        }
        return new Reply(documented(method, path, api.handle(ApiRequest.of(method, path, query, headers, body))));
    }

    /** {@code response} to {@code method path}, once checked against openapi.yaml ({@link OpenApiAnswers}). */
    static ApiResponse documented(String method, String path, ApiResponse response) {
        OpenApiAnswers.document()
                .check(method, path, response.status(), response.headers().get("Content-Type"), response.body());
        return response;
    }

    /** A response with its body parsed. */
    record Reply(ApiResponse response) {
        int status() {
            return response.status();
        }

        JsonNode json() {
            return response.body() == null ? null : InterlockJson.tree(response.body());
        }

        String contentType() {
            return response.headers().get("Content-Type");
        }

        /** The {@code path: message} of every error of a problem answer. */
        java.util.List<String> errors() {
            java.util.List<String> out = new java.util.ArrayList<>();
            json().path("errors")
                    .forEach(e -> out.add(
                            e.get("path").asText() + ": " + e.get("message").asText()));
            return out;
        }

        java.util.List<String> errorPaths() {
            java.util.List<String> out = new java.util.ArrayList<>();
            json().path("errors").forEach(e -> out.add(e.get("path").asText()));
            return out;
        }
    }
}
