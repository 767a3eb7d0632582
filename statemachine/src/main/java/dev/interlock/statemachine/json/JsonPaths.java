package dev.interlock.statemachine.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.jayway.jsonpath.Configuration;
import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.InvalidPathException;
import com.jayway.jsonpath.JsonPath;
import com.jayway.jsonpath.PathNotFoundException;
import com.jayway.jsonpath.spi.json.JacksonJsonNodeJsonProvider;
import com.jayway.jsonpath.spi.mapper.JacksonMappingProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads and writes ASL paths on Jackson trees with Jayway JsonPath. {@code $$…} paths are read from the
 * context object by the caller; here every path starts with {@code $}.
 */
public final class JsonPaths {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Configuration CONFIGURATION = Configuration.builder()
            .jsonProvider(new JacksonJsonNodeJsonProvider(MAPPER))
            .mappingProvider(new JacksonMappingProvider(MAPPER))
            .build();
    /** One step of Jayway's normalised path form, e.g. {@code ['name']} or {@code [3]}. */
    private static final Pattern NORMALISED_STEP = Pattern.compile("\\['((?:[^'\\\\]|\\\\.)*)'\\]|\\[(-?\\d+)\\]");

    private JsonPaths() {}

    /** Whether {@code path} is a JSONPath Jayway accepts. */
    public static boolean isValid(String path) {
        try {
            JsonPath.compile(path);
            return path.startsWith("$");
        } catch (InvalidPathException | IllegalArgumentException e) {
            return false;
        }
    }

    /** Whether {@code path} is a reference path: valid and selecting at most one node. */
    public static boolean isReferencePath(String path) {
        try {
            return path.startsWith("$") && JsonPath.compile(path).isDefinite();
        } catch (InvalidPathException | IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * The value at {@code path}, or empty when a definite path selects nothing. Indefinite paths yield an array
     * (possibly empty). A present JSON null is returned as {@link NullNode}.
     */
    public static Optional<JsonNode> read(JsonNode document, String path) {
        if ("$".equals(path)) {
            return Optional.of(document);
        }
        try {
            JsonPath compiled = JsonPath.compile(path);
            JsonNode value = JsonPath.using(CONFIGURATION).parse(document).read(compiled, JsonNode.class);
            if (value != null && !value.isNull()) {
                return Optional.of(value);
            }
            // Jayway reports an out-of-range array index like a JSON null; only a real null counts as present.
            return compiled.isDefinite() && !holdsNull(document, compiled.getPath())
                    ? Optional.empty()
                    : Optional.of(NullNode.getInstance());
        } catch (PathNotFoundException e) {
            return Optional.empty();
        } catch (InvalidPathException | IllegalArgumentException e) {
            throw new PathException("Invalid JSONPath '" + path + "': " + e.getMessage());
        }
    }

    /** Whether the last step of a definite path names an existing member or element holding JSON null. */
    private static boolean holdsNull(JsonNode document, String normalised) {
        List<Step> steps;
        try {
            steps = steps(normalised);
        } catch (PathException e) {
            return true;
        }
        if (steps.isEmpty()) {
            return document.isNull();
        }
        Step last = steps.getLast();
        String parentPath =
                normalised.substring(0, normalised.length() - last.normalised().length());
        Optional<JsonNode> parent = read(document, parentPath);
        if (parent.isEmpty()) {
            return false;
        }
        JsonNode container = parent.get();
        if (last.name() != null) {
            return container.isObject()
                    && container.has(last.name())
                    && container.get(last.name()).isNull();
        }
        int index = Integer.parseInt(
                last.normalised().substring(1, last.normalised().length() - 1));
        return container.isArray()
                && index < container.size()
                && container.get(index).isNull();
    }

    /**
     * Returns a copy of {@code document} with {@code value} placed at the reference path, creating missing
     * intermediate objects the way ASL's ResultPath does. {@code "$"} replaces the whole document.
     */
    public static JsonNode write(JsonNode document, String path, JsonNode value) {
        if ("$".equals(path)) {
            return value;
        }
        JsonPath compiled;
        try {
            compiled = JsonPath.compile(path);
        } catch (InvalidPathException | IllegalArgumentException e) {
            throw new PathException("Invalid JSONPath '" + path + "': " + e.getMessage());
        }
        if (!compiled.isDefinite()) {
            throw new PathException("'" + path + "' is not a reference path");
        }
        List<Step> steps = steps(compiled.getPath());
        JsonNode root = document.deepCopy();
        if (!root.isContainerNode()) {
            throw new PathException("Unable to apply ResultPath '" + path + "' to a non-object input " + document);
        }
        DocumentContext context = JsonPath.using(CONFIGURATION).parse(root);
        String prefix = "$";
        for (int i = 0; i < steps.size(); i++) {
            Step step = steps.get(i);
            String stepPath = prefix + step.normalised();
            boolean last = i == steps.size() - 1;
            Optional<JsonNode> existing = read(root, stepPath);
            if (last) {
                if (step.name() != null) {
                    requireObject(root, prefix, path);
                    context.put(prefix, step.name(), value);
                } else if (existing.isPresent()
                        && read(root, prefix).orElseThrow().isArray()) {
                    context.set(stepPath, value);
                } else {
                    throw new PathException(
                            "Unable to apply ResultPath '" + path + "': no array element at " + stepPath);
                }
            } else if (existing.isEmpty()) {
                if (step.name() == null) {
                    throw new PathException(
                            "Unable to apply ResultPath '" + path + "': no array element at " + stepPath);
                }
                requireObject(root, prefix, path);
                context.put(prefix, step.name(), JsonNodeFactory.instance.objectNode());
            } else if (!existing.get().isContainerNode()) {
                throw new PathException("Unable to apply ResultPath '" + path + "': " + stepPath + " is not an object");
            }
            prefix = stepPath;
        }
        return context.json();
    }

    private static void requireObject(JsonNode root, String prefix, String path) {
        JsonNode parent = read(root, prefix).orElseThrow();
        if (!parent.isObject()) {
            throw new PathException("Unable to apply ResultPath '" + path + "': " + prefix + " is not an object");
        }
    }

    private static List<Step> steps(String normalised) {
        List<Step> steps = new ArrayList<>();
        Matcher m = NORMALISED_STEP.matcher(normalised);
        int at = 1; // after "$"
        while (m.find(at) && m.start() == at) {
            steps.add(
                    m.group(1) != null
                            ? new Step(m.group(1).replace("\\'", "'"), m.group())
                            : new Step(null, m.group()));
            at = m.end();
        }
        if (at != normalised.length()) {
            throw new PathException("'" + normalised + "' is not a simple reference path");
        }
        return steps;
    }

    /** A property step (name set) or an array index step (name null). */
    private record Step(String name, String normalised) {}
}
