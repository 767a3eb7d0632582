package dev.interlock.runchecker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.contract.RunCheckInput;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.run.FailureCategory;
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
import dev.interlock.testing.JarDiff;
import dev.interlock.testing.LambdaJarRun;
import dev.interlock.testing.LocalHttpServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The deployable jar, target/run-checker-lambda.jar (shrunk by ProGuard), run for real after the build made it: a
 * fresh JVM with only that jar on its class path creates {@link RunCheckerHandler} the way Lambda does and polls one
 * running job per trigger type whose check uses an AWS SDK client (Glue, EMR, EMR Serverless, Step Functions), and a
 * failed Step Functions execution. The AWS endpoints are a local stub speaking each service's protocol and DynamoDB
 * Local, reached through the {@code INTERLOCK_ENDPOINT_*} variables.
 *
 * <p>A class the shrinker removed but a path needs fails the path's invocation with {@code NoClassDefFoundError} or
 * {@code NoSuchMethodError}, so the answer is missing and the test fails with the JVM's output.
 */
class RunCheckerLambdaJarIT {

    private static final String SFN_OK = "arn:aws:states:us-east-1:123456789012:execution:gold-build:ok";
    private static final String SFN_FAILED = "arn:aws:states:us-east-1:123456789012:execution:gold-build:failed";

    private static final Path JAR = Path.of("target", "run-checker-lambda.jar");
    private static final Path UNSHRUNK = Path.of("target", "run-checker-lambda-unshrunk.jar");
    private static final String TABLE = "interlock-jar-it";

    private static LocalDynamoDb dynamoDb;
    private static DynamoDbClient dynamoDbClient;
    private static AwsProtocolStub aws;
    private static LocalHttpServer airflow;

    @BeforeAll
    static void start() {
        dynamoDb = LocalDynamoDb.start();
        dynamoDbClient = dynamoDb.client();
        InterlockTable.createIfAbsent(dynamoDbClient, TABLE, TableDefinition.INTERLOCK);
        aws = AwsProtocolStub.start()
                .on("AWSGlue.GetJobRun", Reply.json("{\"JobRun\":{\"Id\":\"jr_0042\",\"JobRunState\":\"SUCCEEDED\"}}"))
                // The driver-log check (FALSE_SUCCESS) through the CloudWatch Logs client the shrunk jar ships.
                .on(
                        "Logs_20140328.FilterLogEvents",
                        request -> request.json()
                                        .path("logStreamNamePrefix")
                                        .asText()
                                        .equals("jr_lie")
                                ? Reply.json("{\"events\":[{\"logStreamName\":\"jr_lie\",\"timestamp\":1,"
                                        + "\"message\":\"FATAL driver: lost 3 partitions\",\"eventId\":\"e1\"}]}")
                                : Reply.json("{\"events\":[]}"))
                .on(
                        "ElasticMapReduce.DescribeStep",
                        Reply.json("{\"Step\":{\"Id\":\"s-2ABC\",\"Status\":{\"State\":\"COMPLETED\"}}}"))
                .on(
                        "GET /applications/00fabc/jobruns/00fjr1",
                        Reply.json("{\"jobRun\":{\"applicationId\":\"00fabc\","
                                + "\"jobRunId\":\"00fjr1\",\"state\":\"SUCCESS\",\"stateDetails\":\"\"}}"))
                .on(
                        "AWSStepFunctions.DescribeExecution",
                        request -> request.json().path("executionArn").asText().endsWith(":failed")
                                ? Reply.json(
                                        "{\"executionArn\":\"" + SFN_FAILED + "\",\"status\":\"FAILED\","
                                                + "\"error\":\"States.TaskFailed\",\"cause\":\"boom\",\"startDate\":1772359200}")
                                : Reply.json("{\"executionArn\":\"" + SFN_OK
                                        + "\",\"status\":\"SUCCEEDED\",\"startDate\":1772359200}"))
                .on(
                        "secretsmanager.GetSecretValue",
                        Reply.json("{\"Name\":\"interlock/airflow\","
                                + "\"SecretString\":\"{\\\"token\\\":\\\"sm-af-token\\\"}\"}"))
                .on(
                        "AmazonSSM.GetParameter",
                        Reply.json("{\"Parameter\":{\"Name\":\"/interlock/airflow/key\","
                                + "\"Type\":\"SecureString\",\"Value\":\"ssm-af-key\"}}"));
        airflow = LocalHttpServer.start()
                .answer(
                        "GET /api/v1/dags/orders_dag/dagRuns/af_run_1",
                        LocalHttpServer.Answer.json(200, "{\"state\":\"success\"}"))
                // A DAG run that lies: success, with a failed task instance (FALSE_SUCCESS).
                .answer(
                        "GET /api/v1/dags/orders_dag/dagRuns/af_lie",
                        LocalHttpServer.Answer.json(200, "{\"state\":\"success\"}"))
                .answer(
                        "GET /api/v1/dags/orders_dag/dagRuns/af_lie/taskInstances",
                        LocalHttpServer.Answer.json(
                                200,
                                "{\"task_instances\":[{\"task_id\":\"load_orders\",\"state\":\"failed\"}],"
                                        + "\"total_entries\":1}"));
    }

    @AfterAll
    static void stop() {
        airflow.close();
        aws.close();
        dynamoDbClient.close();
        dynamoDb.close();
    }

    @Test
    void theShrunkJarPollsEveryKindOfJobAndSettlesTheRunInDynamoDb(@TempDir Path work) throws Exception {
        assertThat(Files.size(JAR))
                .as("size of %s (under 15 MB)", JAR)
                .isLessThan(InterlockFunction.MAX_DEPLOYABLE_JAR_BYTES);
        DynamoDbProvider store = new DynamoDbProvider(dynamoDbClient, TABLE, Clock.systemUTC());
        Map<String, String> glue = Map.of("glue_job_name", "orders-etl", "glue_job_run_id", "jr_0042");
        Map<String, String> emr = Map.of("emr_cluster_id", "j-CLUSTER", "emr_step_id", "s-2ABC");
        Map<String, String> emrServerless = Map.of("emr_sl_application_id", "00fabc", "emr_sl_job_run_id", "00fjr1");
        Map<String, String> sfn = Map.of("sfn_execution_arn", SFN_OK);
        Map<String, String> sfnFailed = Map.of("sfn_execution_arn", SFN_FAILED);
        Map<String, String> af = Map.of(
                "airflow_url",
                airflow.uri("").toString(),
                "airflow_dag_id",
                "orders_dag",
                "airflow_dag_run_id",
                "af_run_1");
        Map<String, String> afLie = Map.of(
                "airflow_url",
                airflow.uri("").toString(),
                "airflow_dag_id",
                "orders_dag",
                "airflow_dag_run_id",
                "af_lie",
                "airflow_failed_task_check",
                "true");
        Map<String, String> glueLie = Map.of(
                "glue_job_name", "orders-etl", "glue_job_run_id", "jr_lie", "glue_error_log_pattern", "?ERROR ?FATAL");
        running(store, "glue-run", TriggerType.GLUE, glue);
        running(store, "glue-lie-run", TriggerType.GLUE, glueLie);
        running(store, "emr-run", TriggerType.EMR, emr);
        running(store, "emr-sl-run", TriggerType.EMR_SERVERLESS, emrServerless);
        running(store, "sfn-run", TriggerType.STEP_FUNCTION, sfn);
        running(store, "sfn-failed-run", TriggerType.STEP_FUNCTION, sfnFailed);
        running(store, "airflow-run", TriggerType.AIRFLOW, af);
        running(store, "airflow-lie-run", TriggerType.AIRFLOW, afLie);

        LambdaJarRun.Answers answers = LambdaJarRun.of(JAR, RunCheckerHandler.class.getName(), environment())
                .event("glue", event("glue-run", TriggerType.GLUE, glue))
                .event("glue-lie", event("glue-lie-run", TriggerType.GLUE, glueLie))
                .event("emr", event("emr-run", TriggerType.EMR, emr))
                .event("emr-serverless", event("emr-sl-run", TriggerType.EMR_SERVERLESS, emrServerless))
                .event("step-function", event("sfn-run", TriggerType.STEP_FUNCTION, sfn))
                .event("step-function-failed", event("sfn-failed-run", TriggerType.STEP_FUNCTION, sfnFailed))
                .event("airflow-lie", event("airflow-lie-run", TriggerType.AIRFLOW, afLie))
                // Credentials resolved through the Secrets Manager and SSM clients the shrunk jar ships.
                .event(
                        "airflow-secret",
                        InterlockJson.write(new RunCheckInput(
                                "orders",
                                "daily",
                                "2026-03-01",
                                "airflow-run",
                                "airflow",
                                new HashMap<String, Object>(af),
                                Map.of(
                                        "Authorization",
                                        "Bearer ${secret:interlock/airflow#token}",
                                        "X-Api-Key",
                                        "${ssm:/interlock/airflow/key}"),
                                null)))
                .run(work);

        assertAnswer(answers, "glue", "succeeded", "SUCCEEDED", "");
        assertAnswer(
                answers,
                "glue-lie",
                "failed",
                "glue job run jr_lie ended SUCCEEDED, but its driver log (/aws-glue/jobs/error) holds lines matching "
                        + "'?ERROR ?FATAL': FATAL driver: lost 3 partitions",
                "FALSE_SUCCESS");
        assertAnswer(answers, "emr", "succeeded", "COMPLETED", "");
        assertAnswer(answers, "emr-serverless", "succeeded", "SUCCESS", "");
        assertAnswer(answers, "step-function", "succeeded", "SUCCEEDED", "");
        assertAnswer(answers, "step-function-failed", "failed", "FAILED: States.TaskFailed boom", "TRANSIENT");
        assertAnswer(answers, "airflow-secret", "succeeded", "success", "");
        assertAnswer(
                answers,
                "airflow-lie",
                "failed",
                "airflow dag run af_lie ended success, but task instances failed: load_orders (failed)",
                "FALSE_SUCCESS");
        assertThat(airflow.requests())
                .filteredOn(r -> r.path().endsWith("/af_run_1"))
                .singleElement()
                .satisfies(r -> assertThat(r.headers())
                        .containsEntry("Authorization", "Bearer sm-af-token")
                        .containsEntry("X-Api-Key", "ssm-af-key"));
        assertThat(aws.requests("secretsmanager.GetSecretValue"))
                .singleElement()
                .satisfies(r -> assertThat(r.json().path("SecretId").asText()).isEqualTo("interlock/airflow"));
        assertThat(aws.requests("AmazonSSM.GetParameter")).singleElement().satisfies(r -> {
            assertThat(r.json().path("Name").asText()).isEqualTo("/interlock/airflow/key");
            assertThat(r.json().path("WithDecryption").asBoolean()).isTrue();
        });

        // Each job system received the check the SDK client makes, in its own protocol.
        assertThat(aws.requests("AWSGlue.GetJobRun"))
                .extracting(r -> r.json().path("RunId").asText())
                .containsExactlyInAnyOrder("jr_0042", "jr_lie");
        assertThat(aws.requests("Logs_20140328.FilterLogEvents"))
                .as("only the run whose trigger recorded the check's pattern")
                .singleElement()
                .satisfies(
                        r -> assertThat(r.json().path("logGroupName").asText()).isEqualTo("/aws-glue/jobs/error"));
        assertThat(aws.requests("ElasticMapReduce.DescribeStep"))
                .singleElement()
                .satisfies(r -> assertThat(r.json().path("StepId").asText()).isEqualTo("s-2ABC"));
        assertThat(aws.requests("GET /applications/00fabc/jobruns/00fjr1")).hasSize(1);
        assertThat(aws.requests("AWSStepFunctions.DescribeExecution"))
                .extracting(r -> r.json().path("executionArn").asText())
                .containsExactly(SFN_OK, SFN_FAILED);

        // The function settled every run in DynamoDB.
        assertRun(store, "glue-run", RunStatus.COMPLETED);
        assertThat(assertRun(store, "glue-lie-run", RunStatus.FAILED).failureCategory())
                .isEqualTo(FailureCategory.FALSE_SUCCESS);
        assertRun(store, "emr-run", RunStatus.COMPLETED);
        assertRun(store, "emr-sl-run", RunStatus.COMPLETED);
        assertRun(store, "sfn-run", RunStatus.COMPLETED);
        assertRun(store, "airflow-run", RunStatus.COMPLETED);
        assertThat(assertRun(store, "airflow-lie-run", RunStatus.FAILED).failureCategory())
                .isEqualTo(FailureCategory.FALSE_SUCCESS);
        RunState failed = assertRun(store, "sfn-failed-run", RunStatus.FAILED);
        assertThat(failed.failureCategory()).isEqualTo(FailureCategory.TRANSIENT);
    }

    @Test
    void onlyTheSdkServiceClassesWereShrunk() {
        JarDiff.assertOnlyServiceClassesShrunk(UNSHRUNK, JAR);
    }

    private static Map<String, String> environment() {
        String stub = aws.endpoint().toString();
        Map<String, String> env = new HashMap<>();
        env.put("TABLE_NAME", TABLE);
        env.put("AWS_REGION", "us-east-1");
        env.put("INTERLOCK_ENDPOINT_DYNAMODB", dynamoDb.endpoint().toString());
        env.put("INTERLOCK_ENDPOINT_GLUE", stub);
        env.put("INTERLOCK_ENDPOINT_LOGS", stub);
        env.put("INTERLOCK_ENDPOINT_EMR", stub);
        env.put("INTERLOCK_ENDPOINT_EMR_SERVERLESS", stub);
        env.put("INTERLOCK_ENDPOINT_STEPFUNCTIONS", stub);
        env.put("INTERLOCK_ENDPOINT_SECRETSMANAGER", stub);
        env.put("INTERLOCK_ENDPOINT_SSM", stub);
        env.put("INTERLOCK_ALLOW_PRIVATE_URLS", "true");
        env.put("INTERLOCK_SECRETS_PREFIX", "interlock/");
        env.put("INTERLOCK_SSM_PARAMETER_PREFIX", "/interlock/");
        env.put("INTERLOCK_SECRET_HOSTS", "secret:interlock/*=127.0.0.1;ssm:/interlock/*=127.0.0.1");
        return env;
    }

    /** A run the trigger left RUNNING with its job's ids, as the run-checker finds it. */
    private static void running(DynamoDbProvider store, String runId, TriggerType type, Map<String, String> metadata) {
        Instant now = Instant.now();
        assertThat(store.runs()
                        .create(new RunState(
                                runId,
                                "orders",
                                "daily",
                                LocalDate.parse("2026-03-01"),
                                RunStatus.RUNNING,
                                3,
                                type,
                                null,
                                metadata,
                                null,
                                null,
                                now,
                                now)))
                .as(runId)
                .isTrue();
    }

    /** The run-checker Lambda's input (CONTRACT §5): a plain poll of the run. */
    private static String event(String runId, TriggerType type, Map<String, String> metadata) {
        return InterlockJson.write(new RunCheckInput(
                "orders",
                "daily",
                "2026-03-01",
                runId,
                type.wireName(),
                new HashMap<String, Object>(metadata),
                Map.of(),
                null));
    }

    private static void assertAnswer(
            LambdaJarRun.Answers answers, String event, String state, String message, String failureCategory) {
        JsonNode answer = InterlockJson.tree(answers.json(event));
        assertThat(answer.path("state").asText())
                .as("%s answered %s", event, answer)
                .isEqualTo(state);
        assertThat(answer.path("message").asText()).as(event).isEqualTo(message);
        assertThat(answer.path("failureCategory").asText()).as(event).isEqualTo(failureCategory);
    }

    private static RunState assertRun(DynamoDbProvider store, String runId, RunStatus status) {
        RunState run = store.runs().get(runId).orElseThrow(() -> new AssertionError("no run state " + runId));
        assertThat(run.status()).as(runId).isEqualTo(status);
        return run;
    }
}
