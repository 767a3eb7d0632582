package dev.interlock.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.interlock.model.json.InterlockJson;
import java.io.UncheckedIOException;

/**
 * Documents written inline by tests, in JSON or YAML as a user would write them, read with the product's mappers. The
 * product itself reads documents through validation ({@code DocumentValidation}, {@code PipelineValidation}), never
 * straight into records, so these shortcuts live with the tests.
 */
public final class Documents {

    private Documents() {}

    /** Reads a JSON or YAML document (JSON when it starts with '{' or '['); a malformed one names its JSON path. */
    public static <T> T read(String text, Class<T> type) {
        ObjectMapper mapper = InterlockJson.looksLikeJson(text) ? InterlockJson.json() : InterlockJson.yaml();
        try {
            return mapper.readValue(text, type);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(
                    "invalid " + type.getSimpleName() + " document at " + InterlockJson.pathOf(e) + ": "
                            + e.getOriginalMessage(),
                    e);
        }
    }

    /** Writes a value as YAML, as a user would send it. */
    public static String yaml(Object value) {
        try {
            return InterlockJson.yaml().writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("cannot write " + value.getClass().getSimpleName() + " as YAML", e);
        }
    }
}
