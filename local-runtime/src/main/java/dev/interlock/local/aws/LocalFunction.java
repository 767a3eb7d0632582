package dev.interlock.local.aws;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;

/** A function the local runtime runs in process: JSON bytes in, JSON bytes out, exceptions as function errors. */
@FunctionalInterface
public interface LocalFunction {

    byte[] invoke(byte[] payload, Context context) throws Exception;

    /** Adapts a Lambda stream handler (the workflow functions' entry points). */
    static LocalFunction of(RequestStreamHandler handler) {
        return (payload, context) -> {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            handler.handleRequest(new ByteArrayInputStream(payload), out, context);
            return out.toByteArray();
        };
    }

    /**
     * Adapts a typed handler (the API's proxy events, the stream router's DynamoDB events) the way Lambda's Java runtime
     * does: the event is read from JSON into {@code eventType} (member names in any case: the events' own setters say
     * {@code setS} for {@code "S"}), the answer written back as JSON.
     */
    static <I, O> LocalFunction of(RequestHandler<I, O> handler, Class<I> eventType) {
        return (payload, context) -> EventJson.MAPPER.writeValueAsBytes(
                handler.handleRequest(EventJson.MAPPER.readValue(payload, eventType), context));
    }
}

/** The JSON mapping of Lambda's event classes. */
final class EventJson {
    static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(MapperFeature.ACCEPT_CASE_INSENSITIVE_PROPERTIES)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .serializationInclusion(JsonInclude.Include.NON_NULL)
            .build();

    private EventJson() {}
}
