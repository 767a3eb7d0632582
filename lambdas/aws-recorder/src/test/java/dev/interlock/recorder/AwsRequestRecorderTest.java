package dev.interlock.recorder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.runtime.Environment;
import dev.interlock.runtime.aws.AwsClients;
import dev.interlock.testing.AwsProtocolStub;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * What the recorder writes for the requests the functions make, as IAM authorises them. The clients are the
 * functions' own ({@link AwsClients}), which find the recorder through this module's {@code AwsRequestHook} provider file.
 */
class AwsRequestRecorderTest {

    private static final String TABLE = "arn:aws:dynamodb:eu-west-1:000000000000:table/interlock";
    private static final Map<String, AttributeValue> KEY =
            Map.of("PK", AttributeValue.fromS("a"), "SK", AttributeValue.fromS("b"));

    @TempDir
    Path dir;

    private final AwsProtocolStub stub = AwsProtocolStub.start();

    @AfterEach
    void stop() {
        stub.close();
    }

    private AwsClients clients(Map<String, String> extra) {
        Map<String, String> env = new HashMap<>(Map.of("AWS_REGION", "eu-west-1", "TABLE_NAME", "interlock"));
        for (String service : List.of("DYNAMODB", "STEPFUNCTIONS", "LAMBDA", "SNS", "GLUE", "EMR", "EMR_SERVERLESS")) {
            env.put("INTERLOCK_ENDPOINT_" + service, stub.endpoint().toString());
        }
        env.putAll(extra);
        return new AwsClients(Environment.of(env));
    }

    private AwsClients recordingAs(String function) {
        return clients(Map.of("INTERLOCK_AWS_REQUEST_LOG_DIR", dir.toString(), "AWS_LAMBDA_FUNCTION_NAME", function));
    }

    /** The stub answers nothing these tests register: the request was recorded before it failed. */
    private static void call(Runnable request) {
        try {
            request.run();
        } catch (SdkException expected) {
            // recorded anyway
        }
    }

    private List<JsonNode> lines() {
        List<JsonNode> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) {
                for (String line : Files.readAllLines(f)) {
                    out.add(InterlockJson.json().readTree(line));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    @Test
    void eachActionInsideATransactionIsRecordedAsTheActionIamChecks() {
        try (AwsClients aws = recordingAs("api")) {
            call(() -> aws.dynamoDb()
                    .transactWriteItems(r -> r.transactItems(
                            TransactWriteItem.builder()
                                    .put(p -> p.tableName("interlock").item(KEY))
                                    .build(),
                            TransactWriteItem.builder()
                                    .update(u -> u.tableName("interlock")
                                            .key(KEY)
                                            .updateExpression("ADD n :one")
                                            .expressionAttributeValues(Map.of(":one", AttributeValue.fromN("1"))))
                                    .build(),
                            TransactWriteItem.builder()
                                    .conditionCheck(c -> c.tableName("interlock")
                                            .key(KEY)
                                            .conditionExpression("attribute_exists(PK)"))
                                    .build(),
                            TransactWriteItem.builder()
                                    .delete(d -> d.tableName("interlock").key(KEY))
                                    .build())));
        }
        assertThat(lines())
                .extracting(
                        l -> l.path("function").asText(),
                        l -> l.path("operation").asText(),
                        l -> l.path("action").asText(),
                        l -> l.path("resource").asText())
                .containsExactlyInAnyOrder(
                        tuple("api", "TransactWriteItems", "dynamodb:PutItem", TABLE),
                        tuple("api", "TransactWriteItems", "dynamodb:UpdateItem", TABLE),
                        tuple("api", "TransactWriteItems", "dynamodb:ConditionCheckItem", TABLE),
                        tuple("api", "TransactWriteItems", "dynamodb:DeleteItem", TABLE));
        JsonNode first = lines().getFirst();
        assertThat(first.path("service").asText()).isEqualTo("dynamodb");
        assertThat(first.path("region").asText()).isEqualTo("eu-west-1");
        assertThat(first.path("account").asText()).isEqualTo(AwsRequestRecorder.CALLER_ACCOUNT);
        // The function's configuration binds the names to the template's resources; endpoints are not configuration.
        assertThat(first.path("configuration").path("TABLE_NAME").asText()).isEqualTo("interlock");
        assertThat(first.path("configuration").has("INTERLOCK_ENDPOINT_DYNAMODB"))
                .isFalse();
    }

    @Test
    void indexQueriesJobCallsAndInvocationsNameTheirSubResources() {
        try (AwsClients aws = recordingAs("trigger")) {
            call(() -> aws.dynamoDb()
                    .query(r -> r.tableName("interlock")
                            .indexName("GSI1")
                            .keyConditionExpression("GSI1PK = :p")
                            .expressionAttributeValues(Map.of(":p", AttributeValue.fromS("x")))));
            call(() -> aws.dynamoDb().getItem(r -> r.tableName("interlock").key(KEY)));
            call(() -> aws.glue().startJobRun(r -> r.jobName("orders-etl")));
            call(() -> aws.emr().describeStep(r -> r.clusterId("j-ABC123").stepId("s-1")));
            call(() -> aws.emrServerless()
                    .startJobRun(r -> r.applicationId("00abc")
                            .clientToken("run-1")
                            .executionRoleArn("arn:aws:iam::123456789012:role/job")));
            call(() ->
                    aws.emrServerless().getJobRun(r -> r.applicationId("00abc").jobRunId("jr-9")));
            call(() -> aws.stepFunctions()
                    .describeExecution(
                            r -> r.executionArn("arn:aws:states:eu-west-1:123456789012:execution:etl:run-1")));
            call(() -> aws.stepFunctions()
                    .sendTaskSuccess(r -> r.taskToken("opaque").output("{}")));
            call(() -> aws.lambda()
                    .invoke(r -> r.functionName("loader").qualifier("live").payload(SdkBytes.fromUtf8String("{}"))));
            call(() -> aws.sns()
                    .publish(r -> r.topicArn("arn:aws:sns:eu-west-1:123456789012:alerts")
                            .message("m")));
        }
        assertThat(lines())
                .extracting(
                        l -> l.path("action").asText(), l -> l.path("resource").asText())
                .containsExactlyInAnyOrder(
                        tuple("dynamodb:Query", TABLE + "/index/GSI1"),
                        tuple("dynamodb:GetItem", TABLE),
                        tuple("glue:StartJobRun", "arn:aws:glue:eu-west-1:000000000000:job/orders-etl"),
                        tuple(
                                "elasticmapreduce:DescribeStep",
                                "arn:aws:elasticmapreduce:eu-west-1:000000000000:cluster/j-ABC123"),
                        tuple(
                                "emr-serverless:StartJobRun",
                                "arn:aws:emr-serverless:eu-west-1:000000000000:/applications/00abc"),
                        tuple("iam:PassRole", "arn:aws:iam::123456789012:role/job"),
                        tuple(
                                "emr-serverless:GetJobRun",
                                "arn:aws:emr-serverless:eu-west-1:000000000000:/applications/00abc/jobruns/jr-9"),
                        tuple("states:DescribeExecution", "arn:aws:states:eu-west-1:123456789012:execution:etl:run-1"),
                        tuple("states:SendTaskSuccess", "arn:aws:states:eu-west-1:000000000000:stateMachine:*"),
                        tuple("lambda:InvokeFunction", "arn:aws:lambda:eu-west-1:000000000000:function:loader:live"),
                        tuple("sns:Publish", "arn:aws:sns:eu-west-1:123456789012:alerts"));
        JsonNode passRole = lines().stream()
                .filter(l -> l.path("action").asText().equals("iam:PassRole"))
                .findFirst()
                .orElseThrow();
        assertThat(passRole.path("context").path("iam:PassedToService").asText())
                .isEqualTo("emr-serverless.amazonaws.com");
    }

    @Test
    void aRequestIsRecordedOnceAndNothingIsRecordedWhilePrimingOrWithoutAFunction() throws Exception {
        try (AwsClients aws = recordingAs("evaluator");
                AwsClients anonymous = clients(Map.of("INTERLOCK_AWS_REQUEST_LOG_DIR", dir.toString()))) {
            call(() -> aws.dynamoDb().getItem(r -> r.tableName("interlock").key(KEY)));
            call(() -> aws.dynamoDb().getItem(r -> r.tableName("interlock").key(KEY)));
            aws.offline().run(() -> {
                call(() -> aws.dynamoDb().putItem(r -> r.tableName("interlock").item(KEY)));
                return null;
            });
            call(() -> anonymous
                    .dynamoDb()
                    .deleteItem(r -> r.tableName("interlock").key(KEY)));
        }
        assertThat(lines()).extracting(l -> l.path("action").asText()).containsExactly("dynamodb:GetItem");
    }
}
