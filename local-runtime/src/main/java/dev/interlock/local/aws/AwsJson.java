package dev.interlock.local.aws;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.util.Map;

/**
 * The server side of AWS's JSON protocols, spelt once for every local endpoint: the body codec (timestamps as epoch
 * seconds with a fraction, as the SDKs read them), the {@code X-Amz-Target: <Prefix>.<Operation>} dispatch of the
 * JSON 1.0/1.1 services (Step Functions, Glue, EMR, EventBridge) and the error shapes of both those and the REST-JSON
 * services (EMR Serverless).
 */
public final class AwsJson {

    public static final ObjectMapper JSON = new ObjectMapper()
            .registerModule(new JavaTimeModule())
            .enable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .enable(SerializationFeature.WRITE_DATE_TIMESTAMPS_AS_NANOSECONDS);

    public static final String JSON_1_0 = "application/x-amz-json-1.0";
    public static final String JSON_1_1 = "application/x-amz-json-1.1";

    private AwsJson() {}

    /** A service behind {@code X-Amz-Target}: {@code call} answers one operation with a body to serialise. */
    public interface Service {

        /** The target prefix including the dot, e.g. {@code AWSGlue.}. */
        String targetPrefix();

        /** The content type it answers with ({@link #JSON_1_0} or {@link #JSON_1_1}). */
        String contentType();

        /** Answers {@code operation}; refusals are {@link Failure}s. */
        Object call(String operation, JsonNode request);
    }

    /** A refused call, answered with HTTP {@code status} and AWS error code {@code code}. */
    public static final class Failure extends RuntimeException {
        private final int status;
        private final String code;

        public Failure(int status, String code, String message) {
            super(message);
            this.status = status;
            this.code = code;
        }

        /** The usual refusal: HTTP 400 with {@code code}. */
        public static Failure of(String code, String message) {
            return new Failure(400, code, message);
        }

        public int status() {
            return status;
        }

        public String code() {
            return code;
        }
    }

    /** Serves one request of a JSON 1.0/1.1 {@code service} whose target the caller matched. */
    public static void serve(HttpExchange exchange, Service service) throws IOException {
        String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
        JsonNode request;
        try {
            request = readBody(exchange);
        } catch (Failure f) {
            error(exchange, f.status(), f.code(), f.getMessage(), service.contentType());
            return;
        }
        try {
            reply(
                    exchange,
                    200,
                    service.call(target.substring(service.targetPrefix().length()), request),
                    service.contentType());
        } catch (Failure f) {
            error(exchange, f.status(), f.code(), f.getMessage(), service.contentType());
        }
    }

    /** The request body as JSON (empty: an empty object); not JSON is a SerializationException. */
    public static JsonNode readBody(HttpExchange exchange) throws IOException {
        byte[] body = exchange.getRequestBody().readAllBytes();
        if (body.length == 0) {
            return JSON.createObjectNode();
        }
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw Failure.of("SerializationException", "request body is not JSON");
        }
    }

    /** Writes {@code body} as JSON with {@code status}. */
    public static void reply(HttpExchange exchange, int status, Object body, String contentType) throws IOException {
        byte[] out = JSON.writeValueAsBytes(body == null ? Map.of() : body);
        exchange.getResponseHeaders().add("Content-Type", contentType);
        exchange.sendResponseHeaders(status, out.length);
        exchange.getResponseBody().write(out);
    }

    /**
     * Writes an AWS error: the code both as {@code __type} (JSON 1.0/1.1) and as the {@code x-amzn-ErrorType} header
     * (REST-JSON), which is how each protocol's SDK client finds it.
     */
    public static void error(HttpExchange exchange, int status, String type, String message, String contentType)
            throws IOException {
        ObjectNode n = JSON.createObjectNode();
        n.put("__type", type);
        n.put("message", message);
        exchange.getResponseHeaders().add("x-amzn-ErrorType", type);
        reply(exchange, status, n, contentType);
    }

    /** A required text field, or a ValidationException naming it. */
    public static String required(JsonNode request, String field) {
        String value = text(request, field);
        if (value == null || value.isBlank()) {
            throw Failure.of(
                    "ValidationException",
                    "1 validation error detected: Value null at '" + field
                            + "' failed to satisfy constraint: Member must not be null");
        }
        return value;
    }

    /** A text field, or null. */
    public static String text(JsonNode request, String field) {
        JsonNode n = request.get(field);
        return n == null || n.isNull() ? null : n.asText();
    }
}
