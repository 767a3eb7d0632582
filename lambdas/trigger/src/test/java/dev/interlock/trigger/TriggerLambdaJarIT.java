package dev.interlock.trigger;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.contract.TriggerInput;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.model.runtime.InterlockFunction;
import dev.interlock.model.runtime.TableDefinition;
import dev.interlock.model.trigger.EmrServerlessTrigger;
import dev.interlock.model.trigger.EmrTrigger;
import dev.interlock.model.trigger.GlueTrigger;
import dev.interlock.model.trigger.HttpTrigger;
import dev.interlock.model.trigger.LambdaTrigger;
import dev.interlock.model.trigger.StepFunctionTrigger;
import dev.interlock.model.trigger.TriggerConfig;
import dev.interlock.store.dynamodb.DynamoDbProvider;
import dev.interlock.store.dynamodb.InterlockTable;
import dev.interlock.store.dynamodb.LocalDynamoDb;
import dev.interlock.testing.AwsProtocolStub;
import dev.interlock.testing.AwsProtocolStub.Reply;
import dev.interlock.testing.JarDiff;
import dev.interlock.testing.LambdaJarRun;
import dev.interlock.testing.LocalHttpServer;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The deployable jar, target/trigger-lambda.jar (shrunk by ProGuard), run for real after the build made it: a fresh
 * JVM with only that jar on its class path creates {@link TriggerHandler} the way Lambda does and handles one event
 * per trigger type that uses an AWS SDK client, an HTTP trigger, and a failing trigger that alerts. The AWS endpoints
 * are a local stub speaking each service's protocol and DynamoDB Local; every endpoint reaches the function through
 * its {@code INTERLOCK_ENDPOINT_*} variable, as in the local runtime.
 *
 * <p>A class the shrinker removed but a path needs fails the path's invocation with {@code NoClassDefFoundError} or
 * {@code NoSuchMethodError}, so the answer is missing and the test fails with the JVM's output.
 */
class TriggerLambdaJarIT {

    private static final Path JAR = Path.of("target", "trigger-lambda.jar");
    private static final Path UNSHRUNK = Path.of("target", "trigger-lambda-unshrunk.jar");
    private static final String TABLE = "interlock-jar-it";
    private static final String TOPIC = "arn:aws:sns:us-east-1:123456789012:interlock-alerts";

    private static LocalDynamoDb dynamoDb;
    private static DynamoDbClient dynamoDbClient;
    private static AwsProtocolStub aws;
    private static LocalHttpServer jobs;

    @BeforeAll
    static void start() {
        dynamoDb = LocalDynamoDb.start();
        dynamoDbClient = dynamoDb.client();
        InterlockTable.createIfAbsent(dynamoDbClient, TABLE, TableDefinition.INTERLOCK);
        aws = AwsProtocolStub.start()
                .on(
                        "AWSGlue.StartJobRun",
                        request -> request.json().path("JobName").asText().equals("denied-etl")
                                ? Reply.error(400, "AccessDeniedException", "not authorized to run denied-etl")
                                : Reply.json("{\"JobRunId\":\"jr_0042\"}"))
                .on("ElasticMapReduce.AddJobFlowSteps", Reply.json("{\"StepIds\":[\"s-2ABC\"]}"))
                .on(
                        "POST /applications/00fabc/jobruns",
                        Reply.json(
                                "{\"applicationId\":\"00fabc\",\"jobRunId\":\"00fjr1\",\"arn\":\"arn:aws:emr-serverless:x\"}"))
                .on(
                        "AWSStepFunctions.StartExecution",
                        Reply.json(
                                "{\"executionArn\":\"arn:aws:states:us-east-1:123456789012:execution:sm:interlock-sfn-run\",\"startDate\":1772359200}"))
                .on(
                        "POST /2015-03-31/functions/orders-loader/invocations",
                        Reply.raw("{\"loaded\":12}", Map.of("X-Amz-Executed-Version", "7")))
                // SNS speaks the query protocol: a form-encoded POST to "/" answered in XML.
                .on(
                        "POST /",
                        new Reply(
                                200,
                                Map.of("Content-Type", "text/xml"),
                                "<PublishResponse xmlns=\"http://sns.amazonaws.com/doc/2010-03-31/\"><PublishResult>"
                                        + "<MessageId>m-1</MessageId></PublishResult></PublishResponse>"))
                .on(
                        "secretsmanager.GetSecretValue",
                        Reply.json("{\"Name\":\"interlock/orders\","
                                + "\"SecretString\":\"{\\\"token\\\":\\\"sm-orders-token\\\"}\"}"))
                .on(
                        "AmazonSSM.GetParameter",
                        Reply.json("{\"Parameter\":{\"Name\":\"/interlock/orders/key\","
                                + "\"Type\":\"SecureString\",\"Value\":\"ssm-orders-key\"}}"));
        jobs = LocalHttpServer.start().answer("POST /jobs/orders", LocalHttpServer.Answer.json(200, "{\"ok\":true}"));
    }

    @AfterAll
    static void stop() {
        jobs.close();
        aws.close();
        dynamoDbClient.close();
        dynamoDb.close();
    }

    @Test
    void theShrunkJarStartsEveryKindOfJobAndRecordsTheRunInDynamoDb(@TempDir Path work) throws Exception {
        assertThat(Files.size(JAR))
                .as("size of %s (under 15 MB)", JAR)
                .isLessThan(InterlockFunction.MAX_DEPLOYABLE_JAR_BYTES);

        LambdaJarRun.Answers answers = LambdaJarRun.of(JAR, TriggerHandler.class.getName(), environment())
                .event("glue", event("glue-run", new GlueTrigger("orders-etl", Map.of("--date", "2026-03-01"))))
                .event(
                        "emr",
                        event(
                                "emr-run",
                                new EmrTrigger(
                                        "j-CLUSTER", "orders-step", "s3://jars/etl.jar", Map.of("date", "2026-03-01"))))
                .event(
                        "emr-serverless",
                        event(
                                "emr-sl-run",
                                new EmrServerlessTrigger(
                                        "00fabc",
                                        "orders-spark",
                                        "arn:aws:iam::123456789012:role/emr-job",
                                        "s3://code/main.py",
                                        List.of("--input", "s3://in/"),
                                        null,
                                        Map.of())))
                .event(
                        "step-function",
                        event(
                                "sfn-run",
                                new StepFunctionTrigger(
                                        "arn:aws:states:us-east-1:123456789012:stateMachine:sm",
                                        Map.of("date", "2026-03-01"))))
                .event(
                        "lambda",
                        event(
                                "lambda-run",
                                new LambdaTrigger("orders-loader", InterlockJson.tree("{\"date\":\"2026-03-01\"}"))))
                .event(
                        "http",
                        event(
                                "http-run",
                                new HttpTrigger(
                                        "POST",
                                        jobs.uri("/jobs/orders").toString(),
                                        Map.of(),
                                        "{\"date\":\"2026-03-01\"}",
                                        0)))
                .event("glue-denied", event("denied-run", new GlueTrigger("denied-etl", Map.of())))
                // Credentials resolved through the Secrets Manager and SSM clients the shrunk jar ships.
                .event(
                        "http-secret",
                        event(
                                "secret-run",
                                new HttpTrigger(
                                        "POST",
                                        jobs.uri("/jobs/orders").toString(),
                                        Map.of(
                                                "Authorization",
                                                "Bearer ${secret:interlock/orders#token}",
                                                "X-Api-Key",
                                                "${ssm:/interlock/orders/key}"),
                                        "{\"date\":\"${date}\"}",
                                        0)))
                .run(work);

        assertAnswer(answers, "glue", "running", Map.of("glue_job_name", "orders-etl", "glue_job_run_id", "jr_0042"));
        assertAnswer(answers, "emr", "running", Map.of("emr_cluster_id", "j-CLUSTER", "emr_step_id", "s-2ABC"));
        assertAnswer(
                answers,
                "emr-serverless",
                "running",
                Map.of("emr_sl_application_id", "00fabc", "emr_sl_job_run_id", "00fjr1"));
        assertAnswer(
                answers,
                "step-function",
                "running",
                Map.of("sfn_execution_arn", "arn:aws:states:us-east-1:123456789012:execution:sm:interlock-sfn-run"));
        assertAnswer(
                answers,
                "lambda",
                "completed",
                Map.of("lambda_function_name", "orders-loader", "lambda_executed_version", "7"));
        assertAnswer(answers, "http", "completed", Map.of("http_status", "200"));
        assertAnswer(answers, "http-secret", "completed", Map.of("http_status", "200"));

        // Each job system received the call the SDK client makes, in its own protocol.
        assertThat(aws.requests("AWSGlue.StartJobRun"))
                .extracting(r -> r.json().path("JobName").asText())
                .containsExactly("orders-etl", "denied-etl");
        assertThat(aws.requests("ElasticMapReduce.AddJobFlowSteps"))
                .singleElement()
                .satisfies(r -> assertThat(r.json().path("JobFlowId").asText()).isEqualTo("j-CLUSTER"));
        assertThat(aws.requests("POST /applications/00fabc/jobruns"))
                .singleElement()
                .satisfies(
                        r -> assertThat(r.json().path("clientToken").asText()).isEqualTo("emr-sl-run"));
        assertThat(aws.requests("AWSStepFunctions.StartExecution"))
                .singleElement()
                .satisfies(r -> assertThat(r.json().path("name").asText()).isEqualTo("interlock-sfn-run"));
        assertThat(aws.requests("POST /2015-03-31/functions/orders-loader/invocations"))
                .singleElement()
                .satisfies(r -> assertThat(r.body()).isEqualTo("{\"date\":\"2026-03-01\"}"));
        assertThat(jobs.requests())
                .hasSize(2)
                .allSatisfy(r -> assertThat(r.body()).isEqualTo("{\"date\":\"2026-03-01\"}"));
        assertThat(jobs.requests().get(1).headers())
                .containsEntry("Authorization", "Bearer sm-orders-token")
                .containsEntry("X-Api-Key", "ssm-orders-key");
        assertThat(aws.requests("secretsmanager.GetSecretValue"))
                .singleElement()
                .satisfies(r -> assertThat(r.json().path("SecretId").asText()).isEqualTo("interlock/orders"));
        assertThat(aws.requests("AmazonSSM.GetParameter"))
                .singleElement()
                .satisfies(r ->
                        assertThat(r.json().path("WithDecryption").asBoolean()).isTrue());

        // The failed start is answered as such and alerts once through SNS.
        JsonNode denied = InterlockJson.tree(answers.json("glue-denied"));
        assertThat(denied.path("status").asText()).isEqualTo("failed");
        assertThat(denied.path("failureCategory").asText()).isEqualTo("PERMANENT");
        assertThat(denied.path("error").asText()).contains("AccessDeniedException");
        assertThat(aws.requests("POST /")).singleElement().satisfies(r -> {
            Map<String, String> form = form(r.body());
            assertThat(form).containsEntry("Action", "Publish").containsEntry("TopicArn", TOPIC);
            assertThat(form.get("Message")).contains("TRIGGER_FAILED").contains("denied-run");
        });

        // Every run was claimed and settled in DynamoDB by the function.
        DynamoDbProvider store = new DynamoDbProvider(dynamoDbClient, TABLE, Clock.systemUTC());
        assertRun(store, "glue-run", RunStatus.RUNNING);
        assertRun(store, "emr-run", RunStatus.RUNNING);
        assertRun(store, "emr-sl-run", RunStatus.RUNNING);
        assertRun(store, "sfn-run", RunStatus.RUNNING);
        assertRun(store, "lambda-run", RunStatus.COMPLETED);
        assertRun(store, "http-run", RunStatus.COMPLETED);
        assertRun(store, "denied-run", RunStatus.FAILED);
        assertRun(store, "secret-run", RunStatus.COMPLETED);
    }

    @Test
    void theShrunkJarPrimesWithoutARequestLeavingTheProcessAndThenServes(@TempDir Path work) {
        int awsBefore = aws.requests().size();
        int jobsBefore = jobs.requests().size();
        Map<String, String> env = new HashMap<>(environment());
        env.put("INTERLOCK_PRIMING", "always");

        LambdaJarRun.Answers answers = LambdaJarRun.of(JAR, TriggerHandler.class.getName(), env)
                .event(
                        "http",
                        event(
                                "primed-http-run",
                                new HttpTrigger(
                                        "POST",
                                        jobs.uri("/jobs/orders").toString(),
                                        Map.of(),
                                        "{\"date\":\"2026-03-01\"}",
                                        0)))
                .run(work);

        // Priming rehearsed the bundled HTTP and Glue triggers in the shipped jar, without a failure ...
        assertThat(answers.log())
                .contains("\"message\":\"primed\"")
                .contains("\"failures\":\"0\"")
                .contains("\"events\":\"2\"")
                .contains("\"message\":\"primed credential reads\"")
                .contains("\"errors\":\"\"");
        // ... and without reaching Glue, Secrets Manager, SSM or the job server: only the real event's call arrived.
        assertThat(aws.requests()).hasSize(awsBefore);
        assertThat(jobs.requests()).hasSize(jobsBefore + 1);
        assertAnswer(answers, "http", "completed", Map.of("http_status", "200"));
    }

    @Test
    void onlyTheSdkServiceClassesWereShrunk() {
        JarDiff.assertOnlyServiceClassesShrunk(UNSHRUNK, JAR);
    }

    private static Map<String, String> environment() {
        String stub = aws.endpoint().toString();
        Map<String, String> env = new HashMap<>();
        env.put("TABLE_NAME", TABLE);
        env.put("ALERT_TOPIC_ARN", TOPIC);
        env.put("AWS_REGION", "us-east-1");
        env.put("INTERLOCK_ALLOW_PRIVATE_URLS", "true");
        env.put("INTERLOCK_ENDPOINT_DYNAMODB", dynamoDb.endpoint().toString());
        env.put("INTERLOCK_ENDPOINT_GLUE", stub);
        env.put("INTERLOCK_ENDPOINT_EMR", stub);
        env.put("INTERLOCK_ENDPOINT_EMR_SERVERLESS", stub);
        env.put("INTERLOCK_ENDPOINT_STEPFUNCTIONS", stub);
        env.put("INTERLOCK_ENDPOINT_LAMBDA", stub);
        env.put("INTERLOCK_ENDPOINT_SNS", stub);
        env.put("INTERLOCK_ENDPOINT_SECRETSMANAGER", stub);
        env.put("INTERLOCK_ENDPOINT_SSM", stub);
        env.put("INTERLOCK_SECRETS_PREFIX", "interlock/");
        env.put("INTERLOCK_SSM_PARAMETER_PREFIX", "/interlock/");
        env.put("INTERLOCK_SECRET_HOSTS", "secret:interlock/*=127.0.0.1;ssm:/interlock/*=127.0.0.1");
        return env;
    }

    /** The trigger Lambda's input (CONTRACT §5) for a new run of the orders pipeline. */
    private static String event(String runId, TriggerConfig trigger) {
        return InterlockJson.write(
                new TriggerInput("orders", "daily", "2026-03-01", runId, null, InterlockJson.tree(trigger)));
    }

    private static void assertAnswer(
            LambdaJarRun.Answers answers, String event, String status, Map<String, String> metadata) {
        JsonNode answer = InterlockJson.tree(answers.json(event));
        assertThat(answer.path("status").asText())
                .as("%s answered %s", event, answer)
                .isEqualTo(status);
        assertThat(answer.path("error").asText()).as(event).isEmpty();
        metadata.forEach((k, v) -> assertThat(answer.path("metadata").path(k).asText())
                .as("%s %s", event, k)
                .isEqualTo(v));
    }

    private static void assertRun(DynamoDbProvider store, String runId, RunStatus status) {
        RunState run = store.runs().get(runId).orElseThrow(() -> new AssertionError("no run state " + runId));
        assertThat(run.status()).as(runId).isEqualTo(status);
        assertThat(run.pipelineId()).isEqualTo("orders");
    }

    private static Map<String, String> form(String body) {
        Map<String, String> form = new HashMap<>();
        for (String pair : body.split("&")) {
            String[] kv = pair.split("=", 2);
            form.put(
                    URLDecoder.decode(kv[0], StandardCharsets.UTF_8),
                    kv.length > 1 ? URLDecoder.decode(kv[1], StandardCharsets.UTF_8) : "");
        }
        return form;
    }
}
