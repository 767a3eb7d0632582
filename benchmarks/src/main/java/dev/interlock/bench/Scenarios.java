package dev.interlock.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.keys.LockKey;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.model.runtime.InterlockFunction;
import dev.interlock.model.trigger.TriggerType;
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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.jar.JarFile;

/**
 * The realistic event of each function (CONTRACT.md request shapes, Lambda's own JSON for the stream and API
 * Gateway events) and the success each must answer. Every event makes the function do its real work: read the
 * seeded pipeline, CAS a run state, call the job server, start an execution.
 */
final class Scenarios {

    static final String HELLO_HANDLER = "dev.interlock.bench.hello.HelloHandler";
    private static final ObjectMapper JSON = InterlockJson.json();

    private final LocalServices services;
    private final HttpClient http = HttpClient.newHttpClient();
    private final LocalDate today = LocalDate.now(ZoneOffset.UTC);
    private int sequence;

    Scenarios(LocalServices services) {
        this.services = services;
    }

    /** The baseline first, then the six functions in {@link InterlockFunction} order (filtered by name). */
    List<Scenario> all(Path repository, Path helloJar, List<String> only) {
        List<Scenario> result = new ArrayList<>();
        result.add(new Scenario(
                "hello (baseline)",
                HELLO_HANDLER + "::handleRequest",
                HELLO_HANDLER,
                helloJar,
                this::hello,
                () -> missing(helloJar, HELLO_HANDLER)));
        for (InterlockFunction f : InterlockFunction.values()) {
            if (!only.isEmpty() && !only.contains(f.moduleName())) {
                continue;
            }
            Path jar = f.deployableJar(repository);
            Scenario.EventSource events = switch (f) {
                case ORCHESTRATOR -> this::orchestrator;
                case EVALUATOR -> this::evaluator;
                case TRIGGER -> this::trigger;
                case RUN_CHECKER -> this::runChecker;
                case STREAM_ROUTER -> this::streamRouter;
                case API -> this::api;
            };
            result.add(new Scenario(
                    f.moduleName(), f.handler(), f.handlerClass(), jar, events, () -> missing(jar, f.handlerClass())));
        }
        return result;
    }

    private static Optional<String> missing(Path jar, String handlerClass) {
        if (!Files.isRegularFile(jar)) {
            return Optional.of("no jar at " + jar + " (module not built)");
        }
        try (JarFile file = new JarFile(jar.toFile())) {
            if (file.getEntry(handlerClass.replace('.', '/') + ".class") == null) {
                return Optional.of("jar has no " + handlerClass + " (handler not on this branch yet)");
            }
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of("unreadable jar " + jar + ": " + e.getMessage());
        }
    }

    private Scenario.Prepared hello() {
        String event = "{\"hello\":\"world\"}";
        return new Scenario.Prepared(
                event,
                response -> response.equals(event) ? Optional.empty() : Optional.of("echo expected, got " + response));
    }

    /** {@code checkExclusion} reads the pipeline (and its calendar) from DynamoDB: a pipeline without exclusions proceeds. */
    private Scenario.Prepared orchestrator() {
        ObjectNode event = JSON.createObjectNode()
                .put("action", OrchestratorAction.CHECK_EXCLUSION.wireName())
                .put("pipelineId", LocalServices.PIPELINE_ID)
                .put("scheduleId", "daily")
                .put("date", today.toString())
                .put("executionName", executionName());
        event.putObject("payload");
        return new Scenario.Prepared(event.toString(), response -> expect(response, "result", "proceed"));
    }

    /** One resolved trait with a builtin evaluator, exactly as the EvaluateTraits Map passes it. */
    private Scenario.Prepared evaluator() {
        ObjectNode event = JSON.createObjectNode()
                .put("pipelineId", LocalServices.PIPELINE_ID)
                .put("scheduleId", "daily")
                .put("date", today.toString())
                .put("traitType", "source-freshness")
                .put("evaluator", "builtin:always-pass")
                .put("timeout", 30)
                .put("ttl", 300)
                .put("required", true);
        event.putObject("config");
        return new Scenario.Prepared(event.toString(), response -> expect(response, "status", "PASS"));
    }

    /** A new run with the pipeline's HTTP trigger: claims the run by CAS, calls the job server, records COMPLETED. */
    private Scenario.Prepared trigger() {
        long before = services.jobs().triggersOf(LocalServices.JOB);
        // The trigger's claim is fenced by the day's lock: like a real execution, this one takes the lock first (from
        // the previous round's execution, which has finished).
        String execution = executionName();
        LockKey lock = new LockKey(LocalServices.PIPELINE_ID, "daily", today);
        services.provider().locks().forceRelease(lock);
        if (!services.provider().locks().acquire(lock, execution, Duration.ofMinutes(10))) {
            throw new IllegalStateException("could not take the day's lock for " + execution);
        }
        ObjectNode event = JSON.createObjectNode()
                .put("pipelineId", LocalServices.PIPELINE_ID)
                .put("scheduleId", "daily")
                .put("date", today.toString())
                .put("runId", UUID.randomUUID().toString())
                .put("executionName", execution);
        event.putObject("trigger")
                .put("type", "http")
                .put("method", "POST")
                .put("url", services.jobsEndpoint() + "/jobs/" + LocalServices.JOB)
                .put("body", "{}");
        return new Scenario.Prepared(
                event.toString(),
                response -> expect(response, "status", "completed")
                        .or(() -> services.jobs().triggersOf(LocalServices.JOB) == before + 1
                                ? Optional.empty()
                                : Optional.of("the job server did not receive the trigger")));
    }

    /** A RUNNING Airflow run whose DAG run has finished: one poll, then RUNNING → COMPLETED by CAS. */
    private Scenario.Prepared runChecker() throws IOException, InterruptedException {
        String dagRunId = startDagRun();
        String runId = UUID.randomUUID().toString();
        Instant now = Instant.now();
        Map<String, String> metadata = Map.of(
                "airflow_url",
                services.jobsEndpoint().toString(),
                "airflow_dag_id",
                LocalServices.JOB,
                "airflow_dag_run_id",
                dagRunId);
        services.provider()
                .runs()
                .create(new RunState(
                        runId,
                        LocalServices.PIPELINE_ID,
                        "daily",
                        today,
                        RunStatus.RUNNING,
                        1,
                        TriggerType.AIRFLOW,
                        executionName(),
                        metadata,
                        null,
                        null,
                        now,
                        now));
        ObjectNode event = JSON.createObjectNode()
                .put("pipelineId", LocalServices.PIPELINE_ID)
                .put("scheduleId", "daily")
                .put("date", today.toString())
                .put("runId", runId)
                .put("triggerType", "airflow");
        ObjectNode meta = event.putObject("metadata");
        metadata.forEach(meta::put);
        event.putObject("headers");
        return new Scenario.Prepared(
                event.toString(),
                response -> expect(response, "state", "succeeded")
                        .or(() -> services.provider()
                                        .runs()
                                        .get(runId)
                                        .filter(r -> r.status() == RunStatus.COMPLETED)
                                        .isPresent()
                                ? Optional.empty()
                                : Optional.of("run " + runId + " was not moved to COMPLETED")));
    }

    private String startDagRun() throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(
                        URI.create(services.jobsEndpoint() + "/api/v1/dags/" + LocalServices.JOB + "/dagRuns"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{}"))
                .build();
        HttpResponse<String> answer = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() != 200) {
            throw new IllegalStateException(
                    "fake Airflow refused a DAG run: " + answer.statusCode() + " " + answer.body());
        }
        return JSON.readTree(answer.body()).path("dag_run_id").asText();
    }

    /** A DynamoDB stream batch with one marker INSERT (Lambda's JSON shape): one StartExecution, no failures. */
    private Scenario.Prepared streamRouter() {
        int before = services.stepFunctions().started();
        Instant now = Instant.now();
        String sk = "MARKER#external#" + now + "#" + (++sequence);
        String pk = "PIPELINE#" + LocalServices.PIPELINE_ID;
        ObjectNode record = JSON.createObjectNode()
                .put("eventID", UUID.randomUUID().toString().replace("-", ""))
                .put("eventName", "INSERT")
                .put("eventVersion", "1.1")
                .put("eventSource", "aws:dynamodb")
                .put("awsRegion", "us-east-1")
                .put(
                        "eventSourceARN",
                        "arn:aws:dynamodb:us-east-1:123456789012:table/" + LocalServices.TABLE
                                + "/stream/2026-01-01T00:00:00.000");
        ObjectNode dynamodb = record.putObject("dynamodb")
                .put("ApproximateCreationDateTime", now.getEpochSecond())
                .put("SequenceNumber", Long.toString(1000 + sequence))
                .put("SizeBytes", 150)
                .put("StreamViewType", "NEW_AND_OLD_IMAGES");
        ObjectNode keys = dynamodb.putObject("Keys");
        keys.putObject("PK").put("S", pk);
        keys.putObject("SK").put("S", sk);
        ObjectNode image = dynamodb.putObject("NewImage");
        image.putObject("PK").put("S", pk);
        image.putObject("SK").put("S", sk);
        image.putObject("pipelineId").put("S", LocalServices.PIPELINE_ID);
        image.putObject("scheduleId").put("S", "daily");
        image.putObject("date").put("S", today.toString());
        image.putObject("source").put("S", "external");
        image.putObject("replay").put("BOOL", false);
        ObjectNode event = JSON.createObjectNode();
        event.putArray("Records").add(record);
        return new Scenario.Prepared(event.toString(), response -> {
            JsonNode failures = JSON.readTree(response).path("batchItemFailures");
            if (!failures.isArray() || !failures.isEmpty()) {
                return Optional.of("expected no batchItemFailures, got " + response);
            }
            return services.stepFunctions().started() == before + 1
                    ? Optional.empty()
                    : Optional.of("the router did not start exactly one execution");
        });
    }

    /** API Gateway's proxy event for {@code GET /pipelines}: a page of registered pipelines read from DynamoDB. */
    private Scenario.Prepared api() {
        ObjectNode event = JSON.createObjectNode()
                .put("resource", "/{proxy+}")
                .put("path", "/pipelines")
                .put("httpMethod", "GET")
                .put("isBase64Encoded", false);
        event.putObject("headers").put("Accept", "application/json").put("Host", "api.example.com");
        event.putObject("pathParameters").put("proxy", "pipelines");
        event.putObject("requestContext")
                .put("accountId", "123456789012")
                .put("resourcePath", "/{proxy+}")
                .put("httpMethod", "GET")
                .put("stage", "prod")
                .put("requestId", UUID.randomUUID().toString())
                .put("path", "/prod/pipelines");
        event.putNull("body");
        return new Scenario.Prepared(event.toString(), response -> {
            JsonNode answer = JSON.readTree(response);
            if (answer.path("statusCode").asInt() != 200) {
                return Optional.of("expected statusCode 200, got " + response);
            }
            return answer.path("body").asText().contains(LocalServices.PIPELINE_ID)
                    ? Optional.empty()
                    : Optional.of("the page does not list " + LocalServices.PIPELINE_ID + ": " + response);
        });
    }

    private String executionName() {
        return "bench-" + UUID.randomUUID();
    }

    private static Optional<String> expect(String response, String field, String value) throws IOException {
        JsonNode answer = JSON.readTree(response);
        return value.equals(answer.path(field).asText())
                ? Optional.empty()
                : Optional.of("expected \"" + field + "\": \"" + value + "\", got " + response);
    }
}
