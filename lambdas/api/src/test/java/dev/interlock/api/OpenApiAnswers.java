package dev.interlock.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.dialect.Dialects;
import com.networknt.schema.path.PathType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks every answer the API's tests receive against the OpenAPI document ({@code openapi.yaml} on the classpath):
 * the request's path is matched to a documented path template, the (template, method, status) must be documented,
 * the answer's media type must be one the document lists for it, and its body must match the documented schema. The
 * schema check is networknt's json-schema-validator with its OpenAPI 3.0 dialect ({@code nullable}) and format
 * assertions on ({@code date-time}, {@code date}, ...): a validator we did not write. A mismatch fails with the
 * operation, the status and the JSON path of every error. Used by {@code ApiFixture} (unit tests) and by the
 * integration tests' {@code EndToEnd.call}.
 */
public final class OpenApiAnswers {

    /** The IRI the document is registered under; {@code $ref: '#/components/...'} resolve inside it. */
    private static final String BASE = "https://interlock.dev/openapi.json";

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final OpenApiAnswers DOCUMENT = load();

    private final JsonNode document;
    private final SchemaRegistry registry;
    private final Map<String, Schema> schemas = new ConcurrentHashMap<>();

    private OpenApiAnswers(JsonNode document) {
        this.document = document;
        String text = document.toString();
        this.registry = SchemaRegistry.withDefaultDialect(
                Dialects.getOpenApi30(),
                b -> b.schemaRegistryConfig(SchemaRegistryConfig.builder()
                                .formatAssertionsEnabled(true)
                                .pathType(PathType.JSON_PATH)
                                .build())
                        .schemas(Map.of(BASE, text)));
    }

    /** The checker of the API's own document. */
    public static OpenApiAnswers document() {
        return DOCUMENT;
    }

    private static OpenApiAnswers load() {
        try (InputStream in = OpenApiAnswers.class.getClassLoader().getResourceAsStream("openapi.yaml")) {
            if (in == null) {
                throw new IllegalStateException("openapi.yaml is not on the classpath");
            }
            return new OpenApiAnswers(new ObjectMapper(new YAMLFactory()).readTree(in));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Fails (AssertionError) unless the answer {@code status}/{@code contentType}/{@code body} to {@code method
     * path} (the path may carry a query string) is documented and matches its documented schema.
     */
    public void check(String method, String path, int status, String contentType, String body) {
        String bare = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
        Optional<String> template = template(bare);
        String verb = method.toLowerCase(Locale.ROOT);
        if (template.isEmpty() || !document.path("paths").path(template.get()).has(verb)) {
            // No documented operation: the route table's own refusal (404 no such resource, 405 wrong method).
            String operation = method + " " + template.orElse(bare) + " (no documented operation)";
            if (status != 404 && status != 405) {
                throw new AssertionError(operation + " answered " + status + ": only 404/405 are expected there");
            }
            checkBody(operation, status, "/components/responses/Problem", contentType, body);
            return;
        }
        String operation = method + " " + template.get();
        String responses = "/paths/" + escape(template.get()) + "/" + verb + "/responses";
        JsonNode documented = document.at(responses);
        String key = String.valueOf(status);
        if (!documented.has(key)) {
            key = status / 100 + "XX";
        }
        if (!documented.has(key)) {
            key = "default";
        }
        if (!documented.has(key)) {
            List<String> listed = new ArrayList<>();
            documented.fieldNames().forEachRemaining(listed::add);
            throw new AssertionError(operation + " answered " + status + ", which openapi.yaml does not document"
                    + " (documented: " + listed + "); body: " + body);
        }
        checkBody(operation, status, responses + "/" + key, contentType, body);
    }

    private void checkBody(String operation, int status, String responsePointer, String contentType, String body) {
        String pointer = responsePointer;
        JsonNode response = document.at(pointer);
        while (response.has("$ref")) {
            pointer = response.get("$ref").asText().substring(1);
            response = document.at(pointer);
        }
        String where = operation + " -> " + status;
        boolean empty = body == null || body.isBlank();
        if (!response.has("content")) {
            if (!empty) {
                throw new AssertionError(where + ": openapi.yaml documents no body, the answer has one: " + body);
            }
            return;
        }
        String mediaType =
                contentType == null ? "" : contentType.split(";")[0].trim().toLowerCase(Locale.ROOT);
        JsonNode content = response.get("content");
        if (!content.has(mediaType)) {
            List<String> listed = new ArrayList<>();
            content.fieldNames().forEachRemaining(listed::add);
            throw new AssertionError(where + ": answered Content-Type '" + contentType + "', openapi.yaml documents "
                    + listed + "; body: " + body);
        }
        JsonNode media = content.get(mediaType);
        if (!media.has("schema") || !(mediaType.endsWith("/json") || mediaType.endsWith("+json"))) {
            return;
        }
        JsonNode instance;
        try {
            instance = empty ? JSON.nullNode() : JSON.readTree(body);
        } catch (IOException e) {
            throw new AssertionError(where + ": the " + mediaType + " body is not JSON: " + body, e);
        }
        String schemaPointer = pointer + "/content/" + escape(mediaType) + "/schema";
        Schema schema = schemas.computeIfAbsent(schemaPointer, this::schema);
        List<Error> errors = schema.validate(instance);
        if (!errors.isEmpty()) {
            StringBuilder message =
                    new StringBuilder(where + ": the body does not match openapi.yaml#" + schemaPointer + ":");
            for (Error e : errors) {
                message.append("\n  ")
                        .append(e.getInstanceLocation())
                        .append(": ")
                        .append(e.getMessage())
                        .append(" (schema ")
                        .append(e.getSchemaLocation())
                        .append(')');
            }
            message.append("\n  body: ").append(body);
            throw new AssertionError(message.toString());
        }
    }

    private Schema schema(String pointer) {
        return registry.getSchema(SchemaLocation.of(BASE + "#" + pointer));
    }

    /** The documented path template {@code path} falls under: the one with the most literal segments. */
    Optional<String> template(String path) {
        String[] segments = path.split("/", -1);
        String best = null;
        int bestLiterals = -1;
        for (Iterator<String> it = document.path("paths").fieldNames(); it.hasNext(); ) {
            String candidate = it.next();
            String[] parts = candidate.split("/", -1);
            if (parts.length != segments.length) {
                continue;
            }
            int literals = 0;
            boolean matches = true;
            for (int i = 0; i < parts.length && matches; i++) {
                if (parts[i].startsWith("{") && parts[i].endsWith("}")) {
                    matches = !segments[i].isEmpty();
                } else if (parts[i].equals(segments[i])) {
                    literals++;
                } else {
                    matches = false;
                }
            }
            if (matches && literals > bestLiterals) {
                best = candidate;
                bestLiterals = literals;
            }
        }
        return Optional.ofNullable(best);
    }

    /** One JSON-pointer token ({@code ~} and {@code /} escaped). */
    private static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }
}
