package dev.interlock.evaluation;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.trait.TraitStatus;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads what an external evaluator answered (statemachine/CONTRACT.md §5) into a {@link Verdict}, strictly: the Go
 * original counted any unknown status as "not passing", which hid broken evaluators; here it is an invalid answer.
 */
final class EvaluatorAnswer {

    private EvaluatorAnswer() {}

    /** The answer was not an evaluator output; the message says what was wrong. */
    static final class InvalidAnswer extends Exception {
        private static final long serialVersionUID = 1L;

        InvalidAnswer(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Parses {@code {"status", "value"?, "reason"?, "failureCategory"?}}. */
    static Verdict parse(String body) throws InvalidAnswer {
        JsonNode node;
        try {
            node = InterlockJson.json().readTree(body == null ? "" : body);
        } catch (JsonProcessingException e) {
            throw new InvalidAnswer("not JSON (" + e.getOriginalMessage() + "): " + snippet(body), e);
        }
        if (node == null || !node.isObject()) {
            throw new InvalidAnswer("expected a JSON object, got: " + snippet(body), null);
        }
        JsonNode statusNode = field(node, "status");
        if (statusNode == null || !statusNode.isTextual()) {
            throw new InvalidAnswer("no string field 'status' in: " + snippet(body), null);
        }
        TraitStatus status;
        try {
            status = TraitStatus.fromJson(statusNode.asText());
        } catch (IllegalArgumentException e) {
            throw new InvalidAnswer(e.getMessage(), e);
        }
        JsonNode valueNode = field(node, "value");
        Map<String, Object> value = null;
        if (valueNode != null && !valueNode.isNull()) {
            if (!valueNode.isObject()) {
                throw new InvalidAnswer("'value' must be a JSON object, got " + valueNode.getNodeType(), null);
            }
            value = toMap(valueNode);
        }
        JsonNode reasonNode = field(node, "reason");
        String reason = reasonNode == null || reasonNode.isNull() ? null : reasonNode.asText();
        JsonNode categoryNode = field(node, "failureCategory");
        FailureCategory category =
                categoryNode == null || categoryNode.isNull() ? null : FailureCategory.fromJson(categoryNode.asText());
        return new Verdict(status, value, reason, category);
    }

    /** Keys are matched case-insensitively, like every Interlock reader (InterlockJson). */
    private static JsonNode field(JsonNode object, String name) {
        for (Map.Entry<String, JsonNode> e : object.properties()) {
            if (e.getKey().equalsIgnoreCase(name)) {
                return e.getValue();
            }
        }
        return null;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> toMap(JsonNode object) {
        return new LinkedHashMap<>(InterlockJson.json().convertValue(object, Map.class));
    }

    /** At most 200 characters of a body, on one line, for a reason text. */
    static String snippet(String body) {
        if (body == null || body.isBlank()) {
            return "(empty body)";
        }
        String oneLine = body.replaceAll("\\s+", " ").strip();
        return oneLine.length() <= 200 ? oneLine : oneLine.substring(0, 200) + "…";
    }
}
