package dev.interlock.streamrouter;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.marker.ExecutionName;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.model.runtime.InterlockFunction;
import dev.interlock.model.runtime.TableDefinition;
import dev.interlock.model.trigger.TriggerType;
import dev.interlock.store.RunLogKey;
import dev.interlock.store.dynamodb.DynamoDbProvider;
import dev.interlock.store.dynamodb.InterlockTable;
import dev.interlock.store.dynamodb.LocalDynamoDb;
import dev.interlock.testing.AwsProtocolStub;
import dev.interlock.testing.AwsProtocolStub.Reply;
import dev.interlock.testing.JarDiff;
import dev.interlock.testing.LambdaJarRun;
import dev.interlock.testing.LocalHttpServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The deployable jar, target/stream-router-lambda.jar, run for real after the build made it: a fresh JVM with only
 * that jar on its class path (and Lambda's own event serialization beside it, as in Lambda's Java runtime) creates
 * {@link StreamRouterHandler} the way Lambda does and handles two stream batches: a marker insert, which starts a Step
 * Functions execution, and two run-state changes, which send OpenLineage run events to a local HTTP receiver through
 * the OpenLineage client's HttpTransport (Apache HttpClient 5). The endpoints are DynamoDB Local, the AWS protocol stub
 * and a local HTTP server, reached through {@code INTERLOCK_ENDPOINT_*} and {@code OPENLINEAGE_URL}.
 *
 * <p>The OpenLineage client serializes its model classes with Jackson by reflection (getters, annotations, the facets'
 * additional properties): a shrinker that removes a getter nothing calls drops that field from the JSON without any
 * error. So this test checks every field and facet of the received bodies, not only that a request arrived.
 */
class StreamRouterLambdaJarIT {

    private static final String STATE_MACHINE = "arn:aws:states:us-east-1:123456789012:stateMachine:interlock-pipeline";
    private static final Path JAR = Path.of("target", "stream-router-lambda.jar");
    private static final Path UNSHRUNK = Path.of("target", "stream-router-lambda-unshrunk.jar");
    private static final String TABLE = "interlock-jar-it";
    private static final String NAMESPACE = "jar-it";
    private static final String LINEAGE_PATH = "/api/v1/lineage";
    private static final String RUN_ID = "3f2b9c2e-8a41-3d0b-9c55-2f6a7e1d4b10";
    private static final String FAILED_RUN_ID = "7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f";
    private static final String UPSTREAM_RUN_ID = "0b5e8f6a-1c2d-4e3f-9a8b-7c6d5e4f3a2b";

    private static LocalDynamoDb dynamoDb;
    private static DynamoDbClient dynamoDbClient;
    private static AwsProtocolStub aws;
    private static LocalHttpServer lineage;

    @BeforeAll
    static void start() {
        dynamoDb = LocalDynamoDb.start();
        dynamoDbClient = dynamoDb.client();
        InterlockTable.createIfAbsent(dynamoDbClient, TABLE, TableDefinition.INTERLOCK);
        aws = AwsProtocolStub.start()
                .on(
                        "AWSStepFunctions.StartExecution",
                        Reply.json("{\"executionArn\":\"arn:aws:states:us-east-1:123456789012:execution:"
                                + "interlock-pipeline:x\",\"startDate\":1772359200}"));
        lineage = LocalHttpServer.start().answer("POST " + LINEAGE_PATH, LocalHttpServer.Answer.json(201, "{}"));
    }

    @AfterAll
    static void stop() {
        lineage.close();
        aws.close();
        dynamoDbClient.close();
        dynamoDb.close();
    }

    @Test
    void theDeployableJarStartsAnExecutionPerMarkerAndSendsCompleteOpenLineageEvents(@TempDir Path work)
            throws Exception {
        assertThat(Files.size(JAR))
                .as("size of %s (under 15 MB)", JAR)
                .isLessThan(InterlockFunction.MAX_DEPLOYABLE_JAR_BYTES);
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        DynamoDbProvider store = new DynamoDbProvider(dynamoDbClient, TABLE, Clock.systemUTC());
        // gold waits for silver: its events name silver's run of the day (the jobDependencies facet).
        store.pipelines().put(InterlockJson.read("""
                {"name":"gold","archetype":"batch-ingestion","trigger":{"type":"http","url":"https://jobs.example.com/gold"},
                 "traits":{"upstream-dependency":{"evaluator":"builtin:upstream-run-log",
                                                  "config":{"upstreamPipeline":"silver"}}}}""", PipelineConfig.class));
        Instant now = Instant.now();
        store.runLogs()
                .update(
                        new RunLogKey("silver", today, "daily"),
                        current -> new RunLog(
                                "silver",
                                today,
                                "daily",
                                RunLogStatus.COMPLETED,
                                1,
                                UPSTREAM_RUN_ID,
                                "silver-exec",
                                null,
                                null,
                                List.of(),
                                false,
                                now,
                                now,
                                now,
                                List.of()));
        String markerSk = "MARKER#manual#m-1";

        LambdaJarRun.Answers answers = LambdaJarRun.of(JAR, StreamRouterHandler.class.getName(), environment())
                .withLambdaEventSerialization()
                .event("marker", batch(markerInsert("gold", today, markerSk)))
                .event(
                        "run-changes",
                        batch(
                                runChange(
                                        "2",
                                        run(RUN_ID, today, RunStatus.TRIGGERING, null),
                                        run(RUN_ID, today, RunStatus.RUNNING, null)),
                                runChange(
                                        "3",
                                        run(FAILED_RUN_ID, today, RunStatus.RUNNING, null),
                                        run(FAILED_RUN_ID, today, RunStatus.FAILED, "glue job gold-job failed: boom"))))
                .run(work);

        // The marker: one execution, named and started as the state machine expects, no failed record.
        assertThat(InterlockJson.tree(answers.json("marker")).path("batchItemFailures"))
                .as("marker answer")
                .isEmpty();
        assertThat(aws.requests("AWSStepFunctions.StartExecution"))
                .singleElement()
                .satisfies(r -> {
                    JsonNode start = r.json();
                    assertThat(start.path("stateMachineArn").asText()).isEqualTo(STATE_MACHINE);
                    assertThat(start.path("name").asText())
                            .isEqualTo("gold_" + today + "_daily_" + ExecutionName.hash8(markerSk));
                    assertThat(InterlockJson.tree(start.path("input").asText()))
                            .isEqualTo(InterlockJson.tree(Map.of(
                                    "pipelineId",
                                    "gold",
                                    "scheduleId",
                                    "daily",
                                    "date",
                                    today.toString(),
                                    "markerSource",
                                    "manual",
                                    "replay",
                                    false)));
                });

        // The run changes: a START and a FAIL, each a complete OpenLineage RunEvent.
        assertThat(InterlockJson.tree(answers.json("run-changes")).path("batchItemFailures"))
                .as("run-changes answer")
                .isEmpty();
        assertThat(answers.log()).doesNotContain("OpenLineage event not sent");
        List<JsonNode> events = lineage.requests().stream()
                .peek(r -> assertThat(r.method() + " " + r.path()).isEqualTo("POST " + LINEAGE_PATH))
                .peek(r -> assertThat(r.headers().get("Content-Type")).startsWith("application/json"))
                .map(r -> InterlockJson.tree(r.body()))
                .toList();
        assertThat(events).extracting(e -> e.path("eventType").asText()).containsExactly("START", "FAIL");
        for (JsonNode event : events) {
            assertThat(event.path("producer").asText()).startsWith("urn:dev.interlock:interlock-java:");
            assertThat(event.path("schemaURL").asText())
                    .startsWith("https://openlineage.io/spec/")
                    .endsWith("#/$defs/RunEvent");
            assertThat(event.path("eventTime").asText()).startsWith(today.toString());
            assertThat(event.path("job").path("namespace").asText()).isEqualTo(NAMESPACE);
            assertThat(event.path("job").path("name").asText()).isEqualTo("gold");
            assertThat(event.path("inputs").isArray()).as("inputs in %s", event).isTrue();
            assertThat(event.path("outputs").isArray())
                    .as("outputs in %s", event)
                    .isTrue();
            JsonNode facets = event.path("run").path("facets");
            JsonNode readiness = facets.path("interlock_readiness");
            assertThat(readiness.path("_producer").asText()).startsWith("urn:dev.interlock:interlock-java:");
            assertThat(readiness.path("_schemaURL").asText())
                    .isEqualTo("urn:dev.interlock:openlineage:ReadinessRunFacet:1");
            assertThat(readiness.path("verdict").asText()).isEqualTo("READY");
            assertThat(readiness.path("pipeline").asText()).isEqualTo("gold");
            assertThat(readiness.path("schedule").asText()).isEqualTo("daily");
            assertThat(readiness.path("date").asText()).isEqualTo(today.toString());
            assertThat(readiness.path("triggerType").asText()).isEqualTo("glue");
            JsonNode dependencies = facets.path("jobDependencies");
            assertThat(dependencies.path("_producer").asText()).startsWith("urn:dev.interlock:interlock-java:");
            assertThat(dependencies.path("_schemaURL").asText()).contains("JobDependenciesRunFacet");
            assertThat(dependencies.path("upstream")).singleElement().satisfies(upstream -> {
                assertThat(upstream.path("job").path("namespace").asText()).isEqualTo(NAMESPACE);
                assertThat(upstream.path("job").path("name").asText()).isEqualTo("silver");
                assertThat(upstream.path("run").path("runId").asText()).isEqualTo(UPSTREAM_RUN_ID);
                assertThat(upstream.path("dependency_type").asText()).isEqualTo("IMPLICIT_DEPENDENCY");
                assertThat(upstream.path("sequence_trigger_rule").asText()).isEqualTo("FINISH_TO_START");
                assertThat(upstream.path("status_trigger_rule").asText()).isEqualTo("EXECUTE_ON_SUCCESS");
            });
        }
        JsonNode start = events.get(0);
        assertThat(start.path("run").path("runId").asText()).isEqualTo(RUN_ID);
        assertThat(start.path("run").path("facets").has("errorMessage")).isFalse();
        JsonNode fail = events.get(1);
        assertThat(fail.path("run").path("runId").asText()).isEqualTo(FAILED_RUN_ID);
        JsonNode failFacets = fail.path("run").path("facets");
        assertThat(failFacets.path("interlock_readiness").path("status").asText())
                .isEqualTo("FAILED");
        assertThat(failFacets
                        .path("interlock_readiness")
                        .path("failureCategory")
                        .asText())
                .isEqualTo("PERMANENT");
        JsonNode error = failFacets.path("errorMessage");
        assertThat(error.path("message").asText()).isEqualTo("glue job gold-job failed: boom");
        assertThat(error.path("programmingLanguage").asText()).isEqualTo("Interlock");
        assertThat(error.path("_producer").asText()).startsWith("urn:dev.interlock:interlock-java:");
        assertThat(error.path("_schemaURL").asText()).contains("ErrorMessageRunFacet");
    }

    /**
     * Only the shrunk prefixes changed (SDK services, the OpenLineage client, HttpClient 5); of Step Functions only the
     * operation the router calls is left.
     */
    @Test
    void onlyTheShrunkPackagesChanged() {
        JarDiff.assertOnlyServiceClassesShrunk(UNSHRUNK, JAR, "sfn", "CreateStateMachine", "StartExecution");
    }

    private static Map<String, String> environment() {
        Map<String, String> env = new HashMap<>();
        env.put("TABLE_NAME", TABLE);
        env.put("AWS_REGION", "us-east-1");
        env.put("STATE_MACHINE_ARN", STATE_MACHINE);
        env.put("INTERLOCK_ENDPOINT_DYNAMODB", dynamoDb.endpoint().toString());
        env.put("INTERLOCK_ENDPOINT_STEPFUNCTIONS", aws.endpoint().toString());
        env.put("OPENLINEAGE_URL", lineage.uri("").toString());
        env.put("OPENLINEAGE_NAMESPACE", NAMESPACE);
        return env;
    }

    private static RunState run(String runId, LocalDate date, RunStatus status, String failure) {
        Instant now = Instant.now();
        return new RunState(
                runId,
                "gold",
                "daily",
                date,
                status,
                1,
                TriggerType.GLUE,
                "gold-exec",
                Map.of(),
                failure,
                failure == null ? null : FailureCategory.PERMANENT,
                now,
                now);
    }

    private static String batch(String... records) {
        return "{\"Records\":[" + String.join(",", records) + "]}";
    }

    private static String markerInsert(String pipeline, LocalDate date, String sk) {
        Map<String, Object> keys = Map.of("PK", s("PIPELINE#" + pipeline), "SK", s(sk));
        Map<String, Object> image = new HashMap<>(keys);
        image.put("pipelineId", s(pipeline));
        image.put("scheduleId", s("daily"));
        image.put("date", s(date.toString()));
        image.put("source", s("manual"));
        return record("1", "INSERT", keys, null, image);
    }

    private static String runChange(String sequence, RunState before, RunState after) {
        Map<String, Object> keys = Map.of("PK", s("RUN#" + after.runId()), "SK", s("STATE"));
        Map<String, Object> old = new HashMap<>(keys);
        old.put(TableDefinition.DATA, s(InterlockJson.write(before)));
        Map<String, Object> image = new HashMap<>(keys);
        image.put(TableDefinition.DATA, s(InterlockJson.write(after)));
        return record(sequence, "MODIFY", keys, old, image);
    }

    /** One DynamoDB stream record as Lambda delivers it. */
    private static String record(
            String sequence,
            String eventName,
            Map<String, Object> keys,
            Map<String, Object> old,
            Map<String, Object> image) {
        Map<String, Object> dynamodb = new HashMap<>();
        dynamodb.put("ApproximateCreationDateTime", Instant.now().getEpochSecond());
        dynamodb.put("Keys", keys);
        dynamodb.put("SequenceNumber", sequence);
        dynamodb.put("SizeBytes", 200);
        dynamodb.put("StreamViewType", "NEW_AND_OLD_IMAGES");
        dynamodb.put("NewImage", image);
        if (old != null) {
            dynamodb.put("OldImage", old);
        }
        return InterlockJson.write(Map.of(
                "eventID",
                "e" + sequence,
                "eventName",
                eventName,
                "eventVersion",
                "1.1",
                "eventSource",
                "aws:dynamodb",
                "awsRegion",
                "us-east-1",
                "dynamodb",
                dynamodb,
                "eventSourceARN",
                "arn:aws:dynamodb:us-east-1:123456789012:table/" + TABLE + "/stream/2026-03-01T00:00:00.000"));
    }

    private static Map<String, String> s(String value) {
        return Map.of("S", value);
    }
}
