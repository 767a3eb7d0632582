package dev.interlock.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.keys.LockKey;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.model.runtime.InterlockFunction;
import dev.interlock.model.runtime.TableDefinition;
import dev.interlock.model.trigger.TriggerType;
import dev.interlock.store.dynamodb.DynamoDbProvider;
import dev.interlock.store.dynamodb.InterlockTable;
import dev.interlock.store.dynamodb.LocalDynamoDb;
import dev.interlock.testing.AwsProtocolStub;
import dev.interlock.testing.AwsProtocolStub.Reply;
import dev.interlock.testing.Documents;
import dev.interlock.testing.LambdaJarRun;
import dev.interlock.testing.LocalHttpServer;
import dev.interlock.testing.TraitEvaluatorCalls;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The deployable jar, target/orchestrator-lambda.jar, run for real after the build made it: a fresh JVM with only that
 * jar on its class path creates {@link OrchestratorHandler} the way Lambda does, answers a gate, and completes a Glue
 * job's callback wait, and runs a watchdog tick whose callback check asks Glue about a job whose event never came
 * and completes that wait too — so the Glue client the watchdog uses, and the Step Functions client the callback path uses ({@code SendTaskSuccess}) makes its call
 * through the classes the jar ships. The shade configuration once left the whole Step Functions SDK out of this jar
 * after callback completion came: every invocation then failed with {@code NoClassDefFoundError}. And it records a
 * day whose pipeline has post-run checks — a {@code lambda:} one and an HTTP one whose headers carry a Secrets Manager
 * secret and an SSM parameter — so the Lambda, Secrets Manager and SSM clients the checks use (the evaluator's code, in
 * this jar) make their calls through the shrunk classes too.
 */
class OrchestratorLambdaJarIT {

    private static final Path JAR = Path.of("target", "orchestrator-lambda.jar");
    private static final String TABLE = "interlock-orchestrator-jar-it";
    private static final LocalDate DATE = LocalDate.parse("2026-03-01");
    private static final String RUN = "run-jar-it";
    private static final String JOB_RUN = "jr_jar_it";
    /** A run whose job's state-change event never came: the watchdog's callback check is due. */
    private static final String LOST_RUN = "run-jar-it-lost";

    private static final String LOST_JOB_RUN = "jr_jar_it_lost";

    /** A run of the pipeline with post-run checks whose job succeeded: logResult runs its checks. */
    private static final String CHECKED_RUN = "run-jar-it-checked";

    private static LocalDynamoDb dynamoDb;
    private static DynamoDbClient dynamoDbClient;
    private static AwsProtocolStub aws;
    private static LocalHttpServer checks;

    @BeforeAll
    static void start() {
        dynamoDb = LocalDynamoDb.start();
        dynamoDbClient = dynamoDb.client();
        InterlockTable.createIfAbsent(dynamoDbClient, TABLE, TableDefinition.INTERLOCK);
        aws = AwsProtocolStub.start()
                .on("AWSStepFunctions.SendTaskSuccess", Reply.json("{}"))
                .on(
                        "AWSGlue.GetJobRun",
                        Reply.json("{\"JobRun\":{\"Id\":\"" + LOST_JOB_RUN
                                + "\",\"JobName\":\"orders-etl\",\"JobRunState\":\"SUCCEEDED\"}}"));
        TraitEvaluatorCalls.answeredBy(aws);
        checks = LocalHttpServer.start()
                .answer(
                        "POST /audit",
                        LocalHttpServer.Answer.json(200, "{\"status\":\"PASS\",\"value\":{\"audited\":true}}"));
        DynamoDbProvider store = new DynamoDbProvider(dynamoDbClient, TABLE, Clock.systemUTC());
        store.pipelines().put(Documents.read("""
                name: orders
                archetype: batch-ingestion
                trigger: {type: glue, jobName: orders-etl}
                maxJobDurationSeconds: 600
                """, PipelineConfig.class));
        Instant now = Instant.now();
        assertThat(store.runs()
                        .create(new RunState(
                                RUN,
                                "orders",
                                "daily",
                                DATE,
                                RunStatus.RUNNING,
                                1,
                                TriggerType.GLUE,
                                "orders_2026-03-01_daily_jarit001",
                                Map.of("glue_job_name", "orders-etl", "glue_job_run_id", JOB_RUN),
                                null,
                                null,
                                now,
                                now)))
                .isTrue();
        assertThat(store.runs()
                        .create(new RunState(
                                LOST_RUN,
                                "orders",
                                "hourly",
                                DATE,
                                RunStatus.RUNNING,
                                1,
                                TriggerType.GLUE,
                                "orders_2026-03-01_hourly_jarit003",
                                Map.of("glue_job_name", "orders-etl", "glue_job_run_id", LOST_JOB_RUN),
                                null,
                                null,
                                now,
                                now)))
                .isTrue();
        store.jobCallbacks()
                .await(
                        TriggerType.GLUE,
                        LOST_JOB_RUN,
                        new dev.interlock.model.run.JobCallback.Waiter(
                                "orders", "hourly", DATE, LOST_RUN, "orders_2026-03-01_hourly_jarit003", "token-lost"),
                        now.plusSeconds(3600));
        store.watchdog().expectJobCallback("orders", LOST_RUN, "glue", LOST_JOB_RUN, now.minusSeconds(60));
        store.pipelines()
                .put(Documents.read(
                        """
                name: verified
                archetype: batch-ingestion
                trigger: {type: glue, jobName: verified-etl}
                postRun:
                  - {name: rows-written, evaluator: "lambda:row-count"}
                  - name: audit
                    evaluator: "%s"
                    headers: {Authorization: "%s", X-Tenant: "%s"}
                """.formatted(
                                checks.uri("/audit"), TraitEvaluatorCalls.AUTHORIZATION, TraitEvaluatorCalls.TENANT),
                        PipelineConfig.class));
        assertThat(store.runs()
                        .create(new RunState(
                                CHECKED_RUN,
                                "verified",
                                "daily",
                                DATE,
                                RunStatus.COMPLETED,
                                1,
                                TriggerType.GLUE,
                                "verified_2026-03-01_daily_jarit004",
                                Map.of("glue_job_name", "verified-etl", "glue_job_run_id", "jr_jar_it_checked"),
                                null,
                                null,
                                now,
                                now)))
                .isTrue();
        // logResult writes the run log fenced by its execution's lock.
        assertThat(store.locks()
                        .acquire(
                                new LockKey("verified", "daily", DATE),
                                "orders_2026-03-01_daily_jarit002",
                                Duration.ofHours(1)))
                .isTrue();
    }

    @AfterAll
    static void stop() {
        checks.close();
        aws.close();
        dynamoDbClient.close();
        dynamoDb.close();
    }

    @Test
    void theJarAnswersAGateAndCompletesACallbackWaitThroughStepFunctions(@TempDir Path work) throws Exception {
        assertThat(Files.size(JAR))
                .as("size of %s (under 15 MB)", JAR)
                .isLessThan(InterlockFunction.MAX_DEPLOYABLE_JAR_BYTES);

        LambdaJarRun.Answers answers = LambdaJarRun.of(JAR, OrchestratorHandler.class.getName(), environment())
                .event("gate", request(OrchestratorAction.RELEASE_LOCK, null, Map.of("owner", "nobody")))
                .event(
                        "await",
                        request(
                                OrchestratorAction.AWAIT_JOB_COMPLETION,
                                RUN,
                                Map.of(
                                        "taskToken", "token-jar-it",
                                        "triggerType", "glue",
                                        "metadata", Map.of("glue_job_name", "orders-etl", "glue_job_run_id", JOB_RUN))))
                .event("event", glueSucceeded())
                .event("watchdog", InterlockJson.write(OrchestratorAction.WATCHDOG.invocation(null)))
                .run(work);

        assertThat(result(answers, "gate")).isEqualTo("proceed");
        assertThat(result(answers, "await")).isEqualTo("proceed");
        assertThat(result(answers, "event")).isEqualTo("proceed");
        assertThat(result(answers, "watchdog")).isEqualTo("proceed");
        assertThat(aws.requests("AWSGlue.GetJobRun"))
                .as("the watchdog asked Glue about the job whose event never came")
                .singleElement()
                .satisfies(r -> assertThat(r.json().path("RunId").asText()).isEqualTo(LOST_JOB_RUN));
        assertThat(aws.requests("AWSStepFunctions.SendTaskSuccess"))
                .extracting(r -> r.json().path("taskToken").asText())
                .containsExactly("token-jar-it", "token-lost");
    }

    @Test
    void theJarRunsPostRunChecksThroughALambdaAndAnHttpEvaluatorWithSecretHeaders(@TempDir Path work) throws Exception {
        Map<String, Object> completed = Map.of("status", "COMPLETED", "postRunChecks", true);
        LambdaJarRun.Answers answers = LambdaJarRun.of(JAR, OrchestratorHandler.class.getName(), environment())
                .event("logCompleted", request(OrchestratorAction.LOG_RESULT, "verified", CHECKED_RUN, completed))
                .run(work);

        JsonNode answer = InterlockJson.tree(answers.json("logCompleted"));
        assertThat(answer.path("result").asText()).as(answer.toString()).isEqualTo("proceed");
        assertThat(answer.at("/payload/status").asText()).as(answer.toString()).isEqualTo("COMPLETED");
        assertThat(aws.requests(TraitEvaluatorCalls.ROW_COUNT_INVOCATION)).hasSize(1);
        assertThat(checks.requests())
                .singleElement()
                .satisfies(r -> assertThat(r.headers())
                        .containsEntry("Authorization", TraitEvaluatorCalls.AUTHORIZATION_SENT)
                        .containsEntry("X-Tenant", TraitEvaluatorCalls.TENANT_SENT));
        DynamoDbProvider store = new DynamoDbProvider(dynamoDbClient, TABLE, Clock.systemUTC());
        assertThat(store.runs().get(CHECKED_RUN).orElseThrow().dayCompletedAt())
                .as("the day recorded COMPLETED on the run, after its checks")
                .isNotNull();
        assertThat(store.events().latest("verified", 20)).anySatisfy(e -> {
            assertThat(e.kind().wireName()).isEqualTo("POST_RUN_CHECKED");
            assertThat(e.status()).isEqualTo("PASSED");
        });
        assertThat(dynamoDbClient.scan(b -> b.tableName(TABLE)).items().toString())
                .as("no credential reached the table")
                .doesNotContain(TraitEvaluatorCalls.SECRET_TOKEN)
                .doesNotContain(TraitEvaluatorCalls.TENANT_SENT);
    }

    private static Map<String, String> environment() {
        Map<String, String> env = new HashMap<>();
        env.put("TABLE_NAME", TABLE);
        env.put("AWS_REGION", "us-east-1");
        env.put("ALERT_TOPIC_ARN", "arn:aws:sns:us-east-1:000000000000:interlock-alerts");
        env.put("STATE_MACHINE_ARN", "arn:aws:states:us-east-1:000000000000:stateMachine:interlock-pipeline");
        env.put("INTERLOCK_ENDPOINT_DYNAMODB", dynamoDb.endpoint().toString());
        env.put("INTERLOCK_ENDPOINT_STEPFUNCTIONS", aws.endpoint().toString());
        env.put("INTERLOCK_ENDPOINT_SNS", aws.endpoint().toString());
        env.put("INTERLOCK_ENDPOINT_GLUE", aws.endpoint().toString());
        env.putAll(TraitEvaluatorCalls.environment(aws.endpoint()));
        return env;
    }

    private static String request(OrchestratorAction action, String runId, Map<String, ?> payload) {
        return request(action, "orders", runId, payload);
    }

    private static String request(OrchestratorAction action, String pipelineId, String runId, Map<String, ?> payload) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("action", action.wireName());
        r.put("pipelineId", pipelineId);
        r.put("scheduleId", "daily");
        r.put("date", DATE.toString());
        r.put("executionName", "orders_2026-03-01_daily_jarit002");
        if (runId != null) {
            r.put("runId", runId);
        }
        r.put("payload", payload);
        return InterlockJson.write(r);
    }

    private static String glueSucceeded() {
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("jobName", "orders-etl");
        detail.put("state", "SUCCEEDED");
        detail.put("jobRunId", JOB_RUN);
        return InterlockJson.write(Map.of(
                "action",
                OrchestratorAction.JOB_STATE_CHANGE.wireName(),
                "payload",
                Map.of(
                        "source",
                        "aws.glue",
                        "detailType",
                        "Glue Job State Change",
                        "time",
                        "2026-03-01T10:05:00Z",
                        "detail",
                        detail)));
    }

    private static String result(LambdaJarRun.Answers answers, String event) {
        JsonNode answer = InterlockJson.tree(answers.json(event));
        return answer.path("result").asText() + (answer.path("result").asText().equals("proceed") ? "" : ": " + answer);
    }
}
