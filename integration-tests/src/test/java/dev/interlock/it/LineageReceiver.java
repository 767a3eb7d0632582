package dev.interlock.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.dialect.Dialects;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A Marquez-compatible OpenLineage receiver on loopback ({@code POST /api/v1/lineage}): keeps every event it gets and
 * checks each against the OpenLineage spec's JSON schema (test resource {@code openlineage/OpenLineage.json}).
 */
final class LineageReceiver implements AutoCloseable {

    static final String PATH = "/api/v1/lineage";
    private static final String SPEC = "https://openlineage.io/spec/2-0-2/OpenLineage.json";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The spec's RunEvent schema. */
    static final Schema RUN_EVENT = schema();

    private final HttpServer server;
    private final Schema schema;
    private final List<JsonNode> events = new CopyOnWriteArrayList<>();
    private final List<String> invalid = new CopyOnWriteArrayList<>();

    private LineageReceiver(HttpServer server, Schema schema) {
        this.server = server;
        this.schema = schema;
    }

    static LineageReceiver start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
            LineageReceiver receiver = new LineageReceiver(server, RUN_EVENT);
            server.createContext(PATH, exchange -> {
                try (exchange) {
                    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                    receiver.receive(exchange.getRequestMethod(), body);
                    exchange.sendResponseHeaders(201, -1);
                }
            });
            server.start();
            return receiver;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the lineage receiver", e);
        }
    }

    private static Schema schema() {
        try (InputStream in =
                LineageReceiver.class.getClassLoader().getResourceAsStream("openlineage/OpenLineage.json")) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            SchemaRegistry registry = SchemaRegistry.withDefaultDialect(
                    Dialects.getDraft202012(),
                    b -> b.schemaRegistryConfig(SchemaRegistryConfig.builder()
                                    .formatAssertionsEnabled(true)
                                    .build())
                            .schemas(java.util.Map.of(SPEC, text)));
            return registry.getSchema(SchemaLocation.of(SPEC + "#/$defs/RunEvent"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void receive(String method, String body) throws IOException {
        JsonNode event = JSON.readTree(body);
        List<Error> errors = schema.validate(event);
        if (!"POST".equals(method) || !errors.isEmpty()) {
            invalid.add(method + " " + body + " -> " + errors);
        }
        events.add(event);
    }

    /** The base URL Interlock is pointed at (it posts to {@link #PATH} under it). */
    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Every event received, in order of arrival. */
    List<JsonNode> events() {
        return List.copyOf(events);
    }

    /** The events of job {@code name}, in order of arrival. */
    List<JsonNode> eventsOf(String name) {
        return events.stream()
                .filter(e -> name.equals(e.path("job").path("name").asText()))
                .toList();
    }

    /** The received events that were not valid against the schema (or not POSTed), with the validator's findings. */
    List<String> invalid() {
        return List.copyOf(invalid);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
