package dev.interlock.deps.aws;

import dev.interlock.deps.Environment;
import dev.interlock.deps.Lazy;
import dev.interlock.model.runtime.EnvVar;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.emr.EmrClient;
import software.amazon.awssdk.services.emrserverless.EmrServerlessClient;
import software.amazon.awssdk.services.glue.GlueClient;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sns.SnsClient;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Every AWS client a function may use, each created on first use and then reused for the life of the container.
 * All share one URL-connection HTTP client (the smallest jar), an explicit region, and — when an
 * {@code INTERLOCK_ENDPOINT_*} override is set — a local endpoint, so the same code talks to AWS or to the local runtime.
 */
public final class AwsClients implements AutoCloseable {

    private final Environment environment;
    private final Lazy<SdkHttpClient> http;
    private final Lazy<AwsCredentialsProvider> credentials;
    private final Lazy<DynamoDbClient> dynamoDb;
    private final Lazy<SfnClient> stepFunctions;
    private final Lazy<GlueClient> glue;
    private final Lazy<EmrClient> emr;
    private final Lazy<EmrServerlessClient> emrServerless;
    private final Lazy<LambdaClient> lambda;
    private final Lazy<SnsClient> sns;
    private final List<Lazy<? extends AutoCloseable>> closeables = new ArrayList<>();

    public AwsClients(Environment environment) {
        this.environment = environment;
        this.http = Lazy.of(() -> UrlConnectionHttpClient.builder()
                .connectionTimeout(Duration.ofSeconds(5))
                .socketTimeout(Duration.ofSeconds(60))
                .build());
        this.credentials = Lazy.of(this::credentialsProvider);
        this.dynamoDb = track(Lazy.of(() -> configure(DynamoDbClient.builder(), EnvVar.INTERLOCK_ENDPOINT_DYNAMODB).build()));
        this.stepFunctions = track(Lazy.of(() -> configure(SfnClient.builder(), EnvVar.INTERLOCK_ENDPOINT_STEPFUNCTIONS).build()));
        this.glue = track(Lazy.of(() -> configure(GlueClient.builder(), EnvVar.INTERLOCK_ENDPOINT_GLUE).build()));
        this.emr = track(Lazy.of(() -> configure(EmrClient.builder(), EnvVar.INTERLOCK_ENDPOINT_EMR).build()));
        this.emrServerless = track(Lazy.of(() -> configure(EmrServerlessClient.builder(), EnvVar.INTERLOCK_ENDPOINT_EMR_SERVERLESS).build()));
        this.lambda = track(Lazy.of(() -> configure(LambdaClient.builder(), EnvVar.INTERLOCK_ENDPOINT_LAMBDA).build()));
        this.sns = track(Lazy.of(() -> configure(SnsClient.builder(), EnvVar.INTERLOCK_ENDPOINT_SNS).build()));
    }

    public DynamoDbClient dynamoDb() {
        return dynamoDb.get();
    }

    public SfnClient stepFunctions() {
        return stepFunctions.get();
    }

    public GlueClient glue() {
        return glue.get();
    }

    public EmrClient emr() {
        return emr.get();
    }

    public EmrServerlessClient emrServerless() {
        return emrServerless.get();
    }

    public LambdaClient lambda() {
        return lambda.get();
    }

    public SnsClient sns() {
        return sns.get();
    }

    /** Whether a client was ever created (cold-start tests assert a function touches only what it needs). */
    public boolean created(String client) {
        return switch (client) {
            case "dynamodb" -> dynamoDb.isCreated();
            case "sfn" -> stepFunctions.isCreated();
            case "glue" -> glue.isCreated();
            case "emr" -> emr.isCreated();
            case "emrserverless" -> emrServerless.isCreated();
            case "lambda" -> lambda.isCreated();
            case "sns" -> sns.isCreated();
            default -> throw new IllegalArgumentException("unknown client " + client);
        };
    }

    private <B extends AwsClientBuilder<B, ?> & AwsSyncClientBuilder<B, ?>> B configure(B builder, EnvVar endpoint) {
        builder.httpClient(http.get())
                .region(Region.of(environment.get(EnvVar.AWS_REGION)))
                .credentialsProvider(credentials.get());
        endpointOverride(endpoint).ifPresent(builder::endpointOverride);
        return builder;
    }

    private Optional<URI> endpointOverride(EnvVar endpoint) {
        return environment.find(endpoint).map(value -> {
            try {
                return URI.create(value);
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException(endpoint.name() + " is not a valid URL: '" + value + "'", e);
            }
        });
    }

    /**
     * Real credentials on AWS. When any endpoint is overridden (local runtime, tests) and no credentials are
     * configured, fixed dummy credentials are used: local endpoints do not check signatures.
     */
    private AwsCredentialsProvider credentialsProvider() {
        boolean local = java.util.Arrays.stream(EnvVar.values())
                .filter(v -> v.name().startsWith("INTERLOCK_ENDPOINT_"))
                .anyMatch(v -> environment.find(v).isPresent());
        if (local && System.getenv("AWS_ACCESS_KEY_ID") == null) {
            return StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local"));
        }
        return DefaultCredentialsProvider.builder().build();
    }

    private <T extends AutoCloseable> Lazy<T> track(Lazy<T> lazy) {
        closeables.add(lazy);
        return lazy;
    }

    @Override
    public void close() {
        for (Lazy<? extends AutoCloseable> c : closeables) {
            if (c.isCreated()) {
                try {
                    c.get().close();
                } catch (Exception e) {
                    System.err.println("closing AWS client failed: " + e);
                }
            }
        }
        if (http.isCreated()) {
            http.get().close();
        }
    }
}
