package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.statemachine.intrinsics.IntrinsicException;
import dev.interlock.statemachine.intrinsics.IntrinsicFunctions;
import dev.interlock.statemachine.intrinsics.IntrinsicParser;
import dev.interlock.statemachine.json.JsonPaths;
import dev.interlock.statemachine.json.PathException;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;

/**
 * ASL input/output processing: InputPath, Parameters-style payload templates ({@code "key.$"} fields with paths,
 * context paths or intrinsics), ResultSelector, ResultPath and OutputPath. Path failures are States.Runtime.
 */
final class DataFlow {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final IntrinsicFunctions intrinsics;

    DataFlow(IntrinsicFunctions intrinsics) {
        this.intrinsics = intrinsics;
    }

    /** InputPath: null gives {}, a path that selects nothing is a runtime error. */
    JsonNode inputPath(JsonNode input, String path, JsonNode context) {
        if (path == null) {
            return NODES.objectNode();
        }
        return read(path, input, context)
                .orElseThrow(() -> StatesError.runtime(
                        "Invalid path '" + path + "' : The InputPath could not be found in the input '" + input + "'"));
    }

    /** OutputPath: null gives {}, a path that selects nothing is a runtime error. */
    JsonNode outputPath(JsonNode output, String path, JsonNode context) {
        if (path == null) {
            return NODES.objectNode();
        }
        return read(path, output, context)
                .orElseThrow(() -> StatesError.runtime("Invalid path '" + path
                        + "' : The OutputPath could not be found in the output '" + output + "'"));
    }

    /** ResultPath: null keeps the raw input, otherwise the result is placed into a copy of it. */
    JsonNode resultPath(JsonNode rawInput, JsonNode result, String path) {
        if (path == null) {
            return rawInput;
        }
        try {
            return JsonPaths.write(rawInput, path, result);
        } catch (PathException e) {
            throw StatesError.runtime(e.getMessage());
        }
    }

    /** A {@code $…} path on {@code input} or a {@code $$…} path on the context object. */
    Optional<JsonNode> read(String path, JsonNode input, JsonNode context) {
        try {
            if (path.startsWith("$$")) {
                return JsonPaths.read(context, path.substring(1));
            }
            return JsonPaths.read(input, path);
        } catch (PathException e) {
            throw StatesError.runtime(e.getMessage());
        }
    }

    /** Like {@link #read} but a missing value is a runtime error naming {@code field}. */
    JsonNode require(String path, JsonNode input, JsonNode context, String field) {
        return read(path, input, context)
                .orElseThrow(() -> StatesError.runtime("The JSONPath '" + path + "' specified for the field '" + field
                        + "' could not be found in the input '" + input + "'"));
    }

    /** A value written as a path or an intrinsic call (ErrorPath, CausePath, "key.$" fields). */
    JsonNode expression(String expression, JsonNode input, JsonNode context, String field) {
        if (expression.startsWith("$")) {
            return require(expression, input, context, field);
        }
        if (IntrinsicParser.looksLikeCall(expression)) {
            try {
                return intrinsics.evaluate(expression, path -> require(path, input, context, field));
            } catch (IntrinsicException e) {
                throw StatesError.of(StatesErrors.INTRINSIC_FAILURE, e.getMessage());
            }
        }
        throw StatesError.runtime("The value for the field '" + field
                + "' must be a valid JSONPath or a valid intrinsic function call: " + expression);
    }

    /** Builds a payload from a template (Parameters, ItemSelector, ResultSelector). */
    JsonNode template(JsonNode template, JsonNode input, JsonNode context) {
        if (template.isObject()) {
            ObjectNode out = NODES.objectNode();
            Iterator<Map.Entry<String, JsonNode>> fields = template.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                String key = field.getKey();
                if (key.endsWith(".$")) {
                    if (!field.getValue().isTextual()) {
                        throw StatesError.runtime("The value for the field '" + key + "' must be a string");
                    }
                    out.set(
                            key.substring(0, key.length() - 2),
                            expression(field.getValue().asText(), input, context, key));
                } else {
                    out.set(key, template(field.getValue(), input, context));
                }
            }
            return out;
        }
        if (template.isArray()) {
            ArrayNode out = NODES.arrayNode();
            template.forEach(item -> out.add(template(item, input, context)));
            return out;
        }
        return template.deepCopy();
    }
}
