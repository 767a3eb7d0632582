package dev.interlock.infra;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;

/** Reading the synthesized template's nested maps without a cast at every step. */
final class Json {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {}

    /** The value at {@code path} (map keys), or {@code null} when any step is missing. */
    static Object at(Object root, String... path) {
        Object current = root;
        for (String key : path) {
            if (!(current instanceof Map<?, ?> map)) {
                return null;
            }
            current = map.get(key);
        }
        return current;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object root, String... path) {
        return (Map<String, Object>) at(root, path);
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Object root, String... path) {
        Object value = at(root, path);
        if (value == null) {
            return List.of();
        }
        return value instanceof List<?> l ? (List<Object>) l : List.of(value);
    }

    /** Strings only, for Action lists that CloudFormation allows as a single string. */
    static List<String> strings(Object root, String... path) {
        return list(root, path).stream().map(String::valueOf).toList();
    }

    static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static Map<String, Object> ref(String logicalId) {
        return Map.of("Ref", logicalId);
    }
}
