package dev.interlock.runtime.aws;

import dev.interlock.model.runtime.EnvVar;
import dev.interlock.model.runtime.Environment;
import dev.interlock.model.runtime.Lazy;
import dev.interlock.runtime.priming.OfflineMode;
import dev.interlock.runtime.priming.PrimingCredentialsProvider;
import dev.interlock.runtime.priming.PrimingHttpClient;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.EnvironmentVariableCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudwatchlogs.CloudWatchLogsClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.emr.EmrClient;
import software.amazon.awssdk.services.emrserverless.EmrServerlessClient;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.glue.GlueClient;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.ssm.SsmClient;

/**
 * Every AWS client a function may use, each created on first use and then reused for the life of the container.
 * All share one URL-connection HTTP client (the smallest jar), an explicit region, and — when an
 * {@code INTERLOCK_ENDPOINT_*} override is set — a local endpoint, so the same code talks to AWS or to the local runtime.
 */
public final class AwsClients implements AutoCloseable {

    private final Environment environment;
    private final OfflineMode offline;
    private final Lazy<PrimingHttpClient> http;
    private final Lazy<AwsCredentialsProvider> credentials;
    private final Lazy<Object> dynamoDb;
    private final Lazy<Object> stepFunctions;
    private final Lazy<Object> glue;
    private final Lazy<Object> logs;
    private final Lazy<Object> emr;
    private final Lazy<Object> emrServerless;
    private final Lazy<Object> lambda;
    private final Lazy<Object> sns;
    private final Lazy<Object> secretsManager;
    private final Lazy<Object> ssm;
    private final Lazy<Object> eventBridge;
    /** Tests and the local runtime record every request for the IAM conformance check; null everywhere else. */
    private final ExecutionInterceptor recorder;
    /*
     * Service clients are held as Object, and created through ServiceClientFactories, so that no signature here
     * (not even a lambda's synthetic method) names a service class: the JVM then never needs a service jar a
     * function does not ship. The typed accessors cast when called.
     */
    private final List<Lazy<Object>> closeables = new ArrayList<>();

    /** Clients of a runtime that never primes (tools, tests). */
    public AwsClients(Environment environment) {
        this(environment, new OfflineMode());
    }

    /** Clients that answer locally, unsigned by real credentials and unrecorded, on a thread {@code offline} primes. */
    public AwsClients(Environment environment, OfflineMode offline) {
        this.environment = environment;
        this.offline = offline;
        this.recorder = AwsRequestHook.configured(environment, offline).orElse(null);
        this.http = Lazy.of(() -> new PrimingHttpClient(
                UrlConnectionHttpClient.builder()
                        .connectionTimeout(Duration.ofSeconds(5))
                        .socketTimeout(Duration.ofSeconds(60))
                        .build(),
                offline));
        this.credentials = Lazy.of(() -> new PrimingCredentialsProvider(credentialsProvider(), offline));
        this.dynamoDb = track(Lazy.of(() -> ServiceClientFactories.DynamoDb.create(this)));
        this.stepFunctions = track(Lazy.of(() -> ServiceClientFactories.StepFunctions.create(this)));
        this.glue = track(Lazy.of(() -> ServiceClientFactories.Glue.create(this)));
        this.logs = track(Lazy.of(() -> ServiceClientFactories.Logs.create(this)));
        this.emr = track(Lazy.of(() -> ServiceClientFactories.Emr.create(this)));
        this.emrServerless = track(Lazy.of(() -> ServiceClientFactories.EmrServerless.create(this)));
        this.lambda = track(Lazy.of(() -> ServiceClientFactories.Lambda.create(this)));
        this.sns = track(Lazy.of(() -> ServiceClientFactories.Sns.create(this)));
        this.secretsManager = track(Lazy.of(() -> ServiceClientFactories.SecretsManager.create(this)));
        this.ssm = track(Lazy.of(() -> ServiceClientFactories.Ssm.create(this)));
        this.eventBridge = track(Lazy.of(() -> ServiceClientFactories.EventBridge.create(this)));
    }

    /** When these clients answer locally: what shares their priming (credential reads through them). */
    public OfflineMode offline() {
        return offline;
    }

    public DynamoDbClient dynamoDb() {
        return (DynamoDbClient) dynamoDb.get();
    }

    public SfnClient stepFunctions() {
        return (SfnClient) stepFunctions.get();
    }

    public GlueClient glue() {
        return (GlueClient) glue.get();
    }

    /** CloudWatch Logs: only the run-checker's Glue driver-log check creates it (its jar alone ships the service). */
    public CloudWatchLogsClient logs() {
        return (CloudWatchLogsClient) logs.get();
    }

    public EmrClient emr() {
        return (EmrClient) emr.get();
    }

    public EmrServerlessClient emrServerless() {
        return (EmrServerlessClient) emrServerless.get();
    }

    public LambdaClient lambda() {
        return (LambdaClient) lambda.get();
    }

    public SnsClient sns() {
        return (SnsClient) sns.get();
    }

    public SecretsManagerClient secretsManager() {
        return (SecretsManagerClient) secretsManager.get();
    }

    public SsmClient ssm() {
        return (SsmClient) ssm.get();
    }

    /**
     * EventBridge: only the stream router creates it, to put OpenLineage run events on a bus (its jar alone ships the
     * service).
     */
    public EventBridgeClient eventBridge() {
        return (EventBridgeClient) eventBridge.get();
    }

    /** Whether a client was ever created (cold-start tests assert a function touches only what it needs). */
    public boolean created(String client) {
        return switch (client) {
            case "dynamodb" -> dynamoDb.isCreated();
            case "sfn" -> stepFunctions.isCreated();
            case "glue" -> glue.isCreated();
            case "logs" -> logs.isCreated();
            case "emr" -> emr.isCreated();
            case "emrserverless" -> emrServerless.isCreated();
            case "lambda" -> lambda.isCreated();
            case "sns" -> sns.isCreated();
            case "secretsmanager" -> secretsManager.isCreated();
            case "ssm" -> ssm.isCreated();
            case "events" -> eventBridge.isCreated();
            default -> throw new IllegalArgumentException("unknown client " + client);
        };
    }

    <B extends AwsClientBuilder<B, ?> & AwsSyncClientBuilder<B, ?>> B configure(B builder, EnvVar endpoint) {
        builder.httpClient(http.get())
                .region(Region.of(environment.get(EnvVar.AWS_REGION)))
                .credentialsProvider(credentials.get());
        endpointOverride(endpoint).ifPresent(builder::endpointOverride);
        if (recorder != null) {
            builder.overrideConfiguration(c -> c.addExecutionInterceptor(recorder));
        }
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
        if (System.getenv("AWS_ACCESS_KEY_ID") != null && System.getenv("AWS_SECRET_ACCESS_KEY") != null) {
            // On-demand Lambda containers get their role's credentials as environment variables: read them directly
            // rather than building the default chain (profile files, web identity, container and instance
            // providers), which cold start would otherwise load for nothing.
            return EnvironmentVariableCredentialsProvider.create();
        }
        // SnapStart containers get no credential variables; the default chain finds the container endpoint.
        return DefaultCredentialsProvider.builder().build();
    }

    /** Requests answered locally while priming (see {@link PrimingHttpClient}). */
    public long answeredLocally() {
        return http.isCreated() ? http.get().answeredLocally() : 0;
    }

    private Lazy<Object> track(Lazy<Object> lazy) {
        closeables.add(lazy);
        return lazy;
    }

    @Override
    public void close() {
        for (Lazy<Object> c : closeables) {
            if (c.isCreated() && c.get() instanceof AutoCloseable client) {
                try {
                    client.close();
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
