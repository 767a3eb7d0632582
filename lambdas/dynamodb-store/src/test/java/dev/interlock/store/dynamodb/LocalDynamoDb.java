package dev.interlock.store.dynamodb;

import com.amazonaws.services.dynamodbv2.local.main.ServerRunner;
import com.amazonaws.services.dynamodbv2.local.server.DynamoDBProxyServer;
import java.lang.reflect.Field;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * DynamoDB Local as an in-memory HTTP server on 127.0.0.1 and an ephemeral port, telemetry off, reached through the
 * real SDK client (so interceptors such as {@link RequestCounter} see every request, which the embedded client's
 * in-process proxy would bypass).
 */
public final class LocalDynamoDb implements AutoCloseable {

    private final DynamoDBProxyServer server;
    private final URI endpoint;

    private LocalDynamoDb(DynamoDBProxyServer server, URI endpoint) {
        this.server = server;
        this.endpoint = endpoint;
    }

    private static LocalDynamoDb shared;

    /**
     * One server for every test class in this JVM (starting one costs seconds); each test class makes its own
     * client and its own tables. Stopped when the JVM exits.
     */
    public static synchronized LocalDynamoDb shared() {
        if (shared == null) {
            shared = start();
            LocalDynamoDb stopping = shared;
            Runtime.getRuntime().addShutdownHook(new Thread(stopping::close, "dynamodb-local-stop"));
        }
        return shared;
    }

    /** Starts a fresh in-memory DynamoDB Local. */
    public static LocalDynamoDb start() {
        try {
            // The runner insists on a port in 1..65535; it only binds on start(), after the connector is re-pointed.
            DynamoDBProxyServer server = ServerRunner.createServerFromCommandLineArgs(
                    new String[] {"-inMemory", "-sharedDb", "-disableTelemetry", "-port", "8000"});
            // The runner binds every interface; tests must listen on loopback only, on a port nobody else holds.
            ServerConnector connector = (ServerConnector) jetty(server).getConnectors()[0];
            connector.setHost("127.0.0.1");
            connector.setPort(0);
            server.start();
            return new LocalDynamoDb(server, URI.create("http://127.0.0.1:" + connector.getLocalPort()));
        } catch (Exception e) {
            throw new IllegalStateException("cannot start DynamoDB Local on 127.0.0.1", e);
        }
    }

    public URI endpoint() {
        return endpoint;
    }

    /** A DynamoDB client for this server with the given interceptors. */
    public DynamoDbClient client(ExecutionInterceptor... interceptors) {
        return DynamoDbClient.builder()
                .endpointOverride(endpoint)
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                .httpClient(UrlConnectionHttpClient.builder()
                        .socketTimeout(Duration.ofSeconds(30))
                        .build())
                .overrideConfiguration(o -> o.executionInterceptors(List.of(interceptors)))
                .build();
    }

    /** A DynamoDB Streams client for this server. */
    public DynamoDbStreamsClient streamsClient() {
        return DynamoDbStreamsClient.builder()
                .endpointOverride(endpoint)
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                .httpClient(UrlConnectionHttpClient.builder().build())
                .build();
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("cannot stop DynamoDB Local at " + endpoint, e);
        }
    }

    private static Server jetty(DynamoDBProxyServer server) throws ReflectiveOperationException {
        Field field = DynamoDBProxyServer.class.getDeclaredField("server");
        field.setAccessible(true);
        return (Server) field.get(server);
    }
}
