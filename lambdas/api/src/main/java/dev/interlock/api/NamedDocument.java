package dev.interlock.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.json.JsonPath;
import dev.interlock.model.json.ValidationError;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** The rule every PUT of a named document follows: the body's {@code name} must equal the id in the path. */
final class NamedDocument {

    private NamedDocument() {}

    /** Adds an error at {@code $.name} when the body names a different resource than the path (keys match case-insensitively, like the codec). */
    static void checkName(JsonNode document, String pathId, String what, List<ValidationError> errors) {
        for (Iterator<Map.Entry<String, JsonNode>> it = document.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            if (field.getKey().equalsIgnoreCase("name")
                    && field.getValue().isTextual()
                    && !field.getValue().asText().equals(pathId)) {
                errors.add(new ValidationError(
                        JsonPath.field(JsonPath.ROOT, "name"),
                        "'" + field.getValue().asText() + "' must equal the " + what + " in the path '" + pathId
                                + "'"));
            }
        }
    }
}
