package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

/**
 * The Jackson configuration for the engine's records: nulls omitted, dates as epoch seconds (with fraction) as
 * the AWS JSON protocol writes them.
 */
public final class EngineJson {

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .registerModule(new JavaTimeModule())
            .enable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .setSerializationInclusion(JsonInclude.Include.NON_NULL);

    private EngineJson() {}

    /** A shared, configured mapper; copy it before changing its configuration. */
    public static ObjectMapper mapper() {
        return MAPPER;
    }
}
