package dev.interlock.evaluator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.runtime.InterlockFunction;
import dev.interlock.model.runtime.TableDefinition;
import dev.interlock.model.trait.ResolvedTrait;
import dev.interlock.model.trait.TraitStatus;
import dev.interlock.store.dynamodb.InterlockTable;
import dev.interlock.store.dynamodb.LocalDynamoDb;
import dev.interlock.testing.AwsProtocolStub;
import dev.interlock.testing.JarDiff;
import dev.interlock.testing.LambdaJarRun;
import dev.interlock.testing.LocalHttpServer;
import dev.interlock.testing.TraitEvaluatorCalls;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The deployable jar, target/evaluator-lambda.jar (shrunk by ProGuard), run for real after the build made it: a fresh
 * JVM with only that jar on its class path creates {@link EvaluatorHandler} the way Lambda does and evaluates a builtin,
 * a {@code lambda:} and an HTTP trait whose headers carry a Secrets Manager secret and an SSM parameter — so every SDK
 * client the function ships makes its call through the shrunk classes. A class the shrinker removed but a path needs
 * fails that evaluation with {@code NoClassDefFoundError} or {@code NoSuchMethodError}.
 */
class EvaluatorLambdaJarIT {

    private static final Path JAR = Path.of("target", "evaluator-lambda.jar");
    private static final Path UNSHRUNK = Path.of("target", "evaluator-lambda-unshrunk.jar");
    private static final String TABLE = "interlock-evaluator-jar-it";
    private static final LocalDate DATE = LocalDate.parse("2026-03-01");

    private static LocalDynamoDb dynamoDb;
    private static DynamoDbClient dynamoDbClient;
    private static AwsProtocolStub aws;
    private static LocalHttpServer checks;

    @BeforeAll
    static void start() {
        dynamoDb = LocalDynamoDb.start();
        dynamoDbClient = dynamoDb.client();
        InterlockTable.createIfAbsent(dynamoDbClient, TABLE, TableDefinition.INTERLOCK);
        aws = TraitEvaluatorCalls.answeredBy(AwsProtocolStub.start());
        checks = LocalHttpServer.start()
                .answer(
                        "POST /freshness",
                        LocalHttpServer.Answer.json(200, "{\"status\":\"PASS\",\"value\":{\"ageMinutes\":4}}"));
    }

    @AfterAll
    static void stop() {
        checks.close();
        aws.close();
        dynamoDbClient.close();
        dynamoDb.close();
    }

    @Test
    void theShrunkJarEvaluatesEveryKindOfTraitAndWritesNothing(@TempDir Path work) throws Exception {
        assertThat(Files.size(JAR))
                .as("size of %s (under 15 MB)", JAR)
                .isLessThan(InterlockFunction.MAX_DEPLOYABLE_JAR_BYTES);

        LambdaJarRun.Answers answers = LambdaJarRun.of(JAR, EvaluatorHandler.class.getName(), environment())
                .event("builtin", event("completeness", "builtin:always-pass", Map.of()))
                .event("lambda", event("row-count", "lambda:row-count", Map.of()))
                .event(
                        "http-secret",
                        event(
                                "source-freshness",
                                checks.uri("/freshness").toString(),
                                Map.of(
                                        "Authorization",
                                        TraitEvaluatorCalls.AUTHORIZATION,
                                        "X-Tenant",
                                        TraitEvaluatorCalls.TENANT,
                                        "X-Date",
                                        "${date}")))
                .run(work);

        assertStatus(answers, "builtin", TraitStatus.PASS);
        assertStatus(answers, "lambda", TraitStatus.PASS);
        assertStatus(answers, "http-secret", TraitStatus.PASS);
        assertThat(checks.requests())
                .singleElement()
                .satisfies(r -> assertThat(r.headers())
                        .containsEntry("Authorization", TraitEvaluatorCalls.AUTHORIZATION_SENT)
                        .containsEntry("X-Tenant", TraitEvaluatorCalls.TENANT_SENT)
                        .containsEntry("X-Date", "2026-03-01"));
        assertThat(aws.requests("secretsmanager.GetSecretValue"))
                .singleElement()
                .satisfies(r -> assertThat(r.json().path("SecretId").asText()).isEqualTo("interlock/checks"));
        assertThat(aws.requests("AmazonSSM.GetParameter"))
                .singleElement()
                .satisfies(r ->
                        assertThat(r.json().path("WithDecryption").asBoolean()).isTrue());
        assertThat(aws.requests(TraitEvaluatorCalls.ROW_COUNT_INVOCATION)).hasSize(1);

        // The function wrote nothing (the orchestrator records the round); no credential reached the table.
        String items = dynamoDbClient.scan(b -> b.tableName(TABLE)).items().toString();
        assertThat(items)
                .doesNotContain("TRAIT#")
                .doesNotContain(TraitEvaluatorCalls.SECRET_TOKEN)
                .doesNotContain(TraitEvaluatorCalls.TENANT_SENT);
    }

    @Test
    void onlyTheSdkServiceClassesWereShrunk() {
        JarDiff.assertOnlyServiceClassesShrunk(UNSHRUNK, JAR, "ssm", "CreateDocument", "GetParameter");
    }

    private static Map<String, String> environment() {
        Map<String, String> env = new HashMap<>(TraitEvaluatorCalls.environment(aws.endpoint()));
        env.put("TABLE_NAME", TABLE);
        env.put("AWS_REGION", "us-east-1");
        env.put("INTERLOCK_ENDPOINT_DYNAMODB", dynamoDb.endpoint().toString());
        return env;
    }

    /** The evaluator Lambda's input (CONTRACT §5): one resolved trait of the orders pipeline. */
    private static String event(String trait, String evaluator, Map<String, String> headers) {
        return InterlockJson.write(
                new ResolvedTrait("orders", "daily", DATE, trait, evaluator, Map.of(), 30, 300, true, headers));
    }

    private static void assertStatus(LambdaJarRun.Answers answers, String event, TraitStatus status) {
        JsonNode answer = InterlockJson.tree(answers.json(event));
        assertThat(answer.path("status").asText())
                .as("%s answered %s", event, answer)
                .isEqualTo(status.wireName());
    }
}
