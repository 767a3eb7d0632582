package dev.interlock.model.json;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.cfg.MapperBuilder;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * The one Jackson configuration of Interlock, shared by every function, the API and the local runtime.
 */
public final class InterlockJson {

    /** ISO-8601 UTC with exactly three fraction digits, so timestamps sort as strings (GSI sort keys use them). */
    public static final DateTimeFormatter TIMESTAMP =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private static final JsonMapper JSON = configure(JsonMapper.builder()).build();

    /** Only the API and the CLI read YAML: functions that never do should not pay for building its mapper. */
    private static final class Yaml {
        static final YAMLMapper MAPPER = configure(YAMLMapper.builder(YAMLFactory.builder()
                        .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                        .build()))
                .build();
    }

    private InterlockJson() {}

    /** The shared JSON mapper. Do not reconfigure it. */
    public static ObjectMapper json() {
        return JSON;
    }

    /** The shared YAML mapper, configured exactly like {@link #json()}. */
    public static ObjectMapper yaml() {
        return Yaml.MAPPER;
    }

    /** Formats an instant the way every Interlock document does ({@code 2026-02-23T10:15:30.123Z}). */
    public static String timestamp(Instant instant) {
        return TIMESTAMP.format(instant);
    }

    /** Reads a JSON document; malformed input is an {@link IllegalArgumentException} naming the problem. */
    public static <T> T read(String json, Class<T> type) {
        try {
            return JSON.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(
                    "invalid " + type.getSimpleName() + " JSON at " + pathOf(e) + ": " + e.getOriginalMessage(), e);
        }
    }

    /** Parses JSON or YAML text into a tree (for validation and generic handling). */
    public static JsonNode tree(String text) {
        ObjectMapper mapper = looksLikeJson(text) ? JSON : Yaml.MAPPER;
        try {
            return mapper.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("malformed document: " + e.getOriginalMessage(), e);
        }
    }

    /** The tree form of a value, exactly as {@link #write(Object)} would write it. */
    public static JsonNode tree(Object value) {
        return JSON.valueToTree(value);
    }

    /** Converts a tree (or a map) into a typed value with the same rules as reading text. */
    public static <T> T convert(Object value, Class<T> type) {
        return JSON.convertValue(value, type);
    }

    /** Writes compact JSON. */
    public static String write(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("cannot write " + value.getClass().getSimpleName() + " as JSON", e);
        }
    }

    /** The JSON path ({@code $.a.b[2]}) a Jackson error points at; {@code $} for syntax errors. */
    public static String pathOf(JsonProcessingException e) {
        String path = JsonPath.ROOT;
        if (e instanceof JsonMappingException mapping) {
            for (JsonMappingException.Reference ref : mapping.getPath()) {
                if (ref.getFieldName() != null) {
                    path = JsonPath.field(path, ref.getFieldName());
                } else if (ref.getIndex() >= 0) {
                    path = JsonPath.index(path, ref.getIndex());
                }
            }
        }
        return path;
    }

    /** Whether text is JSON rather than YAML: its first non-blank character opens an object or array. */
    public static boolean looksLikeJson(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!Character.isWhitespace(c) && c != '\uFEFF') {
                return c == '{' || c == '[';
            }
        }
        return false;
    }

    private static <M extends ObjectMapper, B extends MapperBuilder<M, B>> B configure(B builder) {
        SimpleModule timestamps = new SimpleModule("interlock-timestamps");
        timestamps.addSerializer(Instant.class, new MillisInstantSerializer());
        return builder.addModule(new JavaTimeModule())
                .addModule(timestamps)
                .enable(MapperFeature.ACCEPT_CASE_INSENSITIVE_PROPERTIES)
                .enable(MapperFeature.ACCEPT_CASE_INSENSITIVE_ENUMS)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
                .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
                .serializationInclusion(JsonInclude.Include.NON_NULL);
    }

    /** Jackson's default writes nanoseconds and drops a zero fraction; Interlock always writes milliseconds. */
    private static final class MillisInstantSerializer extends StdSerializer<Instant> {
        private static final long serialVersionUID = 1L;

        MillisInstantSerializer() {
            super(Instant.class);
        }

        @Override
        public void serialize(Instant value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            gen.writeString(TIMESTAMP.format(value));
        }
    }
}
