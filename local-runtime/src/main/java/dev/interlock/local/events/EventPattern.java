package dev.interlock.local.events;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;

/**
 * EventBridge's event-pattern matching for the patterns Interlock's rules use: every field of the pattern must be in
 * the event; an array lists the values allowed (an event array matches if any element does), where an element
 * {@code {"anything-but": [...]}} allows every value but those; an object matches the event's object field by field.
 */
public final class EventPattern {

    private EventPattern() {}

    /** Whether {@code event} matches {@code pattern}. */
    public static boolean matches(JsonNode pattern, JsonNode event) {
        if (pattern == null || !pattern.isObject()) {
            return false;
        }
        for (Iterator<Map.Entry<String, JsonNode>> fields = pattern.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            JsonNode value = event == null ? null : event.get(field.getKey());
            if (value == null || value.isMissingNode()) {
                return false;
            }
            JsonNode expected = field.getValue();
            boolean ok =
                    expected.isObject() ? value.isObject() && matches(expected, value) : anyAllowed(expected, value);
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static boolean anyAllowed(JsonNode allowed, JsonNode value) {
        if (value.isArray()) {
            for (JsonNode element : value) {
                if (anyAllowed(allowed, element)) {
                    return true;
                }
            }
            return false;
        }
        for (JsonNode candidate : allowed) {
            if (candidate.isObject() && candidate.has("anything-but")) {
                JsonNode excluded = candidate.get("anything-but");
                if (!anyAllowed(
                        excluded.isArray()
                                ? excluded
                                : com.fasterxml.jackson.databind.node.JsonNodeFactory.instance
                                        .arrayNode()
                                        .add(excluded),
                        value)) {
                    return true;
                }
                continue;
            }
            boolean same = candidate.isNumber() && value.isNumber()
                    ? candidate.decimalValue().compareTo(value.decimalValue()) == 0
                    : candidate.equals(value);
            if (same) {
                return true;
            }
        }
        return false;
    }
}
