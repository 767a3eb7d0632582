package dev.interlock.bench;

import dev.interlock.local.demo.FakeJobServer;
import dev.interlock.local.dynamodb.LocalDynamoDb;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.runtime.EnvVar;
import dev.interlock.model.runtime.TableDefinition;
import dev.interlock.store.Provider;
import dev.interlock.store.dynamodb.DynamoDbProvider;
import dev.interlock.store.dynamodb.InterlockTable;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * What the functions talk to while they are measured, all on 127.0.0.1: DynamoDB Local with the Interlock table
 * and one seeded pipeline, a Step Functions stub, and the fake job server (an HTTP job and an Airflow API whose
 * runs finish at once). Every function does its real work against these instead of failing fast.
 */
final class LocalServices implements AutoCloseable {

    static final String TABLE = "interlock";
    static final String PIPELINE_ID = "bench-orders";
    static final String JOB = "bench-orders";
    static final String STATE_MACHINE_ARN = "arn:aws:states:us-east-1:123456789012:stateMachine:interlock";
    static final String ALERT_TOPIC_ARN = "arn:aws:sns:us-east-1:123456789012:interlock-alerts";

    private final LocalDynamoDb dynamoDb;
    private final DynamoDbClient client;
    private final Provider provider;
    private final StepFunctionsStub stepFunctions;
    private final FakeJobServer jobs;

    private LocalServices(
            LocalDynamoDb dynamoDb,
            DynamoDbClient client,
            Provider provider,
            StepFunctionsStub stepFunctions,
            FakeJobServer jobs) {
        this.dynamoDb = dynamoDb;
        this.client = client;
        this.provider = provider;
        this.stepFunctions = stepFunctions;
        this.jobs = jobs;
    }

    static LocalServices start() throws Exception {
        LocalDynamoDb dynamoDb = LocalDynamoDb.start(0, null);
        DynamoDbClient client = DynamoDbClient.builder()
                .endpointOverride(dynamoDb.endpoint())
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("bench", "bench")))
                .httpClient(UrlConnectionHttpClient.create())
                .build();
        InterlockTable.createIfAbsent(client, TABLE, TableDefinition.INTERLOCK);
        Provider provider = new DynamoDbProvider(client, TABLE, Clock.systemUTC());
        StepFunctionsStub stepFunctions = StepFunctionsStub.start();
        FakeJobServer jobs = FakeJobServer.start(0, Clock.systemUTC(), Duration.ZERO);
        LocalServices services = new LocalServices(dynamoDb, client, provider, stepFunctions, jobs);
        provider.pipelines().put(services.pipeline());
        return services;
    }

    /** A daily pipeline with an always-passing trait and an HTTP trigger to the fake job server. */
    private PipelineConfig pipeline() {
        String json = """
                {"name": "%s",
                 "description": "cold-start benchmark pipeline",
                 "traits": {"source-freshness": {"evaluator": "builtin:always-pass"}},
                 "trigger": {"type": "http", "method": "POST", "url": "%s/jobs/%s", "body": "{}"},
                 "schedules": [{"name": "daily", "after": "00:00", "deadline": "23:59", "timezone": "UTC"}]}
                """.formatted(PIPELINE_ID, jobs.endpoint(), JOB);
        return InterlockJson.read(json, PipelineConfig.class);
    }

    Provider provider() {
        return provider;
    }

    StepFunctionsStub stepFunctions() {
        return stepFunctions;
    }

    FakeJobServer jobs() {
        return jobs;
    }

    URI jobsEndpoint() {
        return jobs.endpoint();
    }

    /**
     * Interlock's own variables for every function (names from {@link EnvVar}). Every AWS endpoint is overridden —
     * those a benchmark event does not use point at the Step Functions stub, which refuses them — so no call can
     * leave the machine with the dummy credentials.
     */
    Map<String, String> functionEnvironment() {
        String sfn = stepFunctions.endpoint().toString();
        Map<String, String> env = new LinkedHashMap<>();
        env.put(EnvVar.TABLE_NAME.name(), TABLE);
        env.put(EnvVar.STATE_MACHINE_ARN.name(), STATE_MACHINE_ARN);
        env.put(EnvVar.ALERT_TOPIC_ARN.name(), ALERT_TOPIC_ARN);
        env.put(EnvVar.INTERLOCK_ALLOW_PRIVATE_URLS.name(), "true");
        env.put(EnvVar.INTERLOCK_ENDPOINT_DYNAMODB.name(), dynamoDb.endpoint().toString());
        env.put(EnvVar.INTERLOCK_ENDPOINT_STEPFUNCTIONS.name(), sfn);
        env.put(EnvVar.INTERLOCK_ENDPOINT_LAMBDA.name(), sfn);
        env.put(EnvVar.INTERLOCK_ENDPOINT_SNS.name(), sfn);
        env.put(EnvVar.INTERLOCK_ENDPOINT_GLUE.name(), sfn);
        env.put(EnvVar.INTERLOCK_ENDPOINT_LOGS.name(), sfn);
        env.put(EnvVar.INTERLOCK_ENDPOINT_EMR.name(), sfn);
        env.put(EnvVar.INTERLOCK_ENDPOINT_EMR_SERVERLESS.name(), sfn);
        env.put(EnvVar.AWS_REGION.name(), "us-east-1");
        return env;
    }

    @Override
    public void close() throws Exception {
        jobs.close();
        stepFunctions.close();
        client.close();
        dynamoDb.close();
    }
}
