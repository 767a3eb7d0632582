package dev.interlock.statemachine.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The fields of one ASL document as the parser reads them: each read of a wrong JSON type adds a problem naming the
 * field's path, and the parser throws them all together.
 */
final class AslFields {

    final List<String> problems = new ArrayList<>();

    void problem(String problem) {
        problems.add(problem);
    }

    JsonNode template(JsonNode n, String field, String at) {
        JsonNode value = n.get(field);
        if (value != null && !value.isObject() && field.equals("ResultSelector")) {
            problem(at + "." + field + ": must be an object");
        }
        return value;
    }

    /** A path field: "$" when absent, null when explicitly null. */
    String path(JsonNode n, String field, String at) {
        if (!n.has(field)) {
            return "$";
        }
        JsonNode value = n.get(field);
        if (value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            problem(at + "." + field + ": must be a string or null");
            return "$";
        }
        return value.asText();
    }

    String text(JsonNode n, String field, String at) {
        JsonNode value = n.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            problem(at + "." + field + ": must be a string");
            return null;
        }
        return value.asText();
    }

    Integer integer(JsonNode n, String field, String at) {
        JsonNode value = n.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isIntegralNumber() || !value.canConvertToInt()) {
            problem(at + "." + field + ": must be an integer");
            return null;
        }
        return value.asInt();
    }
}
