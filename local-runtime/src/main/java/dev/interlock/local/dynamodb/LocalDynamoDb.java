package dev.interlock.local.dynamodb;

import com.amazonaws.services.dynamodbv2.local.main.ServerRunner;
import com.amazonaws.services.dynamodbv2.local.server.DynamoDBProxyServer;
import java.lang.reflect.Field;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * DynamoDB Local as an HTTP server on 127.0.0.1, in memory or persisted under a data directory, telemetry off.
 * The functions reach it with their real SDK clients through {@code INTERLOCK_ENDPOINT_DYNAMODB}.
 */
public final class LocalDynamoDb implements AutoCloseable {

    /** DynamoDB Local's bundled SDK v1 warns through java.util.logging about JAXB it does not need; keep it quiet. */
    private static final java.util.logging.Logger SDK_V1_LOG = java.util.logging.Logger.getLogger("com.amazonaws");

    private final DynamoDBProxyServer proxy;
    private final ServerConnector connector;

    private LocalDynamoDb(DynamoDBProxyServer proxy, ServerConnector connector) {
        this.proxy = proxy;
        this.connector = connector;
    }

    /**
     * Starts the server on 127.0.0.1:{@code port} (0 = any free port). With a data directory the tables survive
     * restarts; without, everything lives in memory.
     */
    public static LocalDynamoDb start(int port, Path dataDir) throws Exception {
        SDK_V1_LOG.setLevel(java.util.logging.Level.SEVERE);
        List<String> args = new ArrayList<>(
                List.of("-port", String.valueOf(port == 0 ? 8000 : port), "-sharedDb", "-disableTelemetry"));
        if (dataDir == null) {
            args.add("-inMemory");
        } else {
            Files.createDirectories(dataDir);
            args.add("-dbPath");
            args.add(dataDir.toAbsolutePath().toString());
        }
        DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args.toArray(String[]::new));
        ServerConnector connector = loopbackConnector(proxy, port);
        proxy.start();
        return new LocalDynamoDb(proxy, connector);
    }

    /**
     * DynamoDB Local binds every interface and offers no option for the host, so the connector of its Jetty server
     * is re-pointed at 127.0.0.1 (and the requested port) before it starts — the one place we reach inside it.
     */
    private static ServerConnector loopbackConnector(DynamoDBProxyServer proxy, int port)
            throws ReflectiveOperationException {
        Field f = DynamoDBProxyServer.class.getDeclaredField("server");
        f.setAccessible(true);
        Server server = (Server) f.get(proxy);
        ServerConnector connector = (ServerConnector) server.getConnectors()[0];
        connector.setHost("127.0.0.1");
        connector.setPort(port);
        return connector;
    }

    public int port() {
        return connector.getLocalPort();
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + port());
    }

    @Override
    public void close() throws Exception {
        proxy.stop();
    }
}
