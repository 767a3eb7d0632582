package dev.interlock.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.keys.LockKey;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.runtime.InterlockFunction;
import dev.interlock.model.runtime.TableDefinition;
import dev.interlock.store.dynamodb.DynamoDbProvider;
import dev.interlock.store.dynamodb.InterlockTable;
import dev.interlock.store.dynamodb.LocalDynamoDb;
import dev.interlock.testing.AwsProtocolStub;
import dev.interlock.testing.AwsProtocolStub.Reply;
import dev.interlock.testing.LambdaJarRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The deployable jar, target/api-lambda.jar, run for real after the build made it: a fresh JVM with only that jar on
 * its class path (and Lambda's own event serialization beside it, as in Lambda's Java runtime) creates
 * {@link ApiHandler} the way Lambda does and answers API Gateway proxy events: a read of the table, and the operator's
 * unlock of a lock whose holder is still RUNNING — refused, then with force the holder is stopped through Step
 * Functions. A client class left out of the jar fails the first request with {@code NoClassDefFoundError} (the jar
 * once shipped without Step Functions, so every request failed).
 */
class ApiLambdaJarIT {

    /** In the local account, as the IAM conformance check's deployment names its resources (its requests are judged). */
    private static final String STATE_MACHINE = "arn:aws:states:us-east-1:000000000000:stateMachine:interlock-pipeline";

    private static final Path JAR = Path.of("target", "api-lambda.jar");
    private static final String TABLE = "interlock-api-jar-it";
    private static final LocalDate DATE = LocalDate.parse("2026-03-01");
    private static final String HOLDER = "orders_2026-03-01_daily_live";
    private static final String LOCK_PATH = "/pipelines/orders/locks/daily/2026-03-01";

    private static LocalDynamoDb dynamoDb;
    private static DynamoDbClient dynamoDbClient;
    private static AwsProtocolStub aws;

    @BeforeAll
    static void start() {
        dynamoDb = LocalDynamoDb.start();
        dynamoDbClient = dynamoDb.client();
        InterlockTable.createIfAbsent(dynamoDbClient, TABLE, TableDefinition.INTERLOCK);
        aws = AwsProtocolStub.start()
                .on(
                        "AWSStepFunctions.DescribeExecution",
                        Reply.json("{\"executionArn\":\"arn:aws:states:us-east-1:000000000000:execution:"
                                + "interlock-pipeline:" + HOLDER + "\",\"stateMachineArn\":\"" + STATE_MACHINE
                                + "\",\"status\":\"RUNNING\",\"startDate\":1772359200}"))
                .on("AWSStepFunctions.StopExecution", Reply.json("{\"stopDate\":1772359300}"));
    }

    @AfterAll
    static void stop() {
        aws.close();
        dynamoDbClient.close();
        dynamoDb.close();
    }

    @Test
    void theDeployableJarAnswersAndUnlocksALiveHolderOnlyWithForce(@TempDir Path work) throws Exception {
        assertThat(Files.size(JAR))
                .as("size of %s (under 15 MB)", JAR)
                .isLessThan(InterlockFunction.MAX_DEPLOYABLE_JAR_BYTES);
        DynamoDbProvider store = new DynamoDbProvider(dynamoDbClient, TABLE, Clock.systemUTC());
        store.pipelines().put(InterlockJson.read("""
                {"name":"orders","archetype":"batch-ingestion",
                 "trigger":{"type":"http","url":"https://jobs.example.com/orders"}}""", PipelineConfig.class));
        LockKey lock = new LockKey("orders", "daily", DATE);
        assertThat(store.locks().acquire(lock, HOLDER, Duration.ofHours(5))).isTrue();

        LambdaJarRun.Answers answers = LambdaJarRun.of(JAR, ApiHandler.class.getName(), environment())
                .withLambdaEventSerialization()
                .event("list", request("GET", "/pipelines", Map.of()))
                .event("unlock", request("DELETE", LOCK_PATH, Map.of("reason", "stuck")))
                .event("unlock-force", request("DELETE", LOCK_PATH, Map.of("reason", "stuck", "force", "true")))
                .run(work);

        JsonNode list = answer(answers, "list", 200);
        assertThat(list.toString()).contains("\"orders\"");
        JsonNode refused = answer(answers, "unlock", 409);
        assertThat(refused.path("detail").asText()).contains(HOLDER).contains("still RUNNING");
        JsonNode released = answer(answers, "unlock-force", 200);
        assertThat(released.path("stoppedExecution").asText()).isEqualTo(HOLDER);
        assertThat(aws.requests("AWSStepFunctions.StopExecution"))
                .singleElement()
                .satisfies(r -> assertThat(r.json().path("executionArn").asText())
                        .isEqualTo("arn:aws:states:us-east-1:000000000000:execution:interlock-pipeline:" + HOLDER));
        assertThat(store.locks().holder(lock)).isEmpty();
    }

    private static Map<String, String> environment() {
        Map<String, String> env = new HashMap<>();
        env.put("TABLE_NAME", TABLE);
        env.put("AWS_REGION", "us-east-1");
        env.put("STATE_MACHINE_ARN", STATE_MACHINE);
        env.put("INTERLOCK_ENDPOINT_DYNAMODB", dynamoDb.endpoint().toString());
        env.put("INTERLOCK_ENDPOINT_STEPFUNCTIONS", aws.endpoint().toString());
        return env;
    }

    /** API Gateway's REST proxy event for one request by an IAM user. */
    private static String request(String method, String path, Map<String, String> query) {
        ObjectNode event = InterlockJson.json().createObjectNode();
        event.put("httpMethod", method).put("path", path);
        ObjectNode parameters = event.putObject("queryStringParameters");
        query.forEach(parameters::put);
        event.putObject("headers").put("Accept", "application/json");
        event.putObject("requestContext").putObject("identity").put("userArn", "arn:aws:iam::123456789012:user/ops");
        return event.toString();
    }

    private static JsonNode answer(LambdaJarRun.Answers answers, String event, int status) {
        JsonNode response = InterlockJson.tree(answers.json(event));
        assertThat(response.path("statusCode").asInt())
                .as("%s answered %s", event, response)
                .isEqualTo(status);
        return InterlockJson.tree(response.path("body").asText());
    }
}
