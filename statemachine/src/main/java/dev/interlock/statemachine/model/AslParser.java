package dev.interlock.statemachine.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns ASL JSON into a {@link StateMachineDefinition}. Shape errors (wrong JSON types, unknown state types) are
 * collected and thrown together; graph problems (dangling names, unreachable states) are left to
 * {@link DefinitionValidator} so that a broken graph can still be inspected.
 */
public final class AslParser {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final AslFields fields = new AslFields();
    private final ChoiceRuleParser choiceRules = new ChoiceRuleParser(fields);
    private final RetryCatchParser retryCatch = new RetryCatchParser(fields);

    private AslParser() {}

    /** Parses the text of an ASL document. */
    public static StateMachineDefinition parse(String json) {
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new AslParseException(List.of("not valid JSON: " + e.getOriginalMessage()));
        }
        return parse(root);
    }

    /** Parses an already-read ASL document. */
    public static StateMachineDefinition parse(JsonNode root) {
        AslParser parser = new AslParser();
        if (root == null || !root.isObject()) {
            throw new AslParseException(List.of("$: the document must be a JSON object"));
        }
        StateMachineDefinition definition = parser.definition((ObjectNode) root);
        if (!parser.fields.problems.isEmpty()) {
            throw new AslParseException(parser.fields.problems);
        }
        return definition;
    }

    private StateMachineDefinition definition(ObjectNode root) {
        String queryLanguage = fields.text(root, "QueryLanguage", "$");
        if (queryLanguage != null && !"JSONPath".equals(queryLanguage)) {
            fields.problem("$.QueryLanguage: only JSONPath is supported, found " + queryLanguage);
        }
        StateGraph graph = graph(root, "$");
        return new StateMachineDefinition(
                fields.text(root, "Comment", "$"),
                graph,
                fields.integer(root, "TimeoutSeconds", "$"),
                fields.text(root, "Version", "$"));
    }

    private StateGraph graph(JsonNode node, String where) {
        String startAt = fields.text(node, "StartAt", where);
        if (startAt == null) {
            fields.problem(where + ".StartAt: required");
        }
        Map<String, State> states = new LinkedHashMap<>();
        JsonNode statesNode = node.get("States");
        if (statesNode == null || !statesNode.isObject()) {
            fields.problem(where + ".States: required object");
        } else {
            Iterator<Map.Entry<String, JsonNode>> entries = statesNode.fields();
            while (entries.hasNext()) {
                Map.Entry<String, JsonNode> e = entries.next();
                String at = where + ".States." + e.getKey();
                if (!e.getValue().isObject()) {
                    fields.problem(at + ": a state must be an object");
                    continue;
                }
                State state = state(e.getKey(), e.getValue(), at);
                if (state != null) {
                    states.put(e.getKey(), state);
                }
            }
        }
        return new StateGraph(startAt, states);
    }

    private State state(String name, JsonNode n, String at) {
        String type = fields.text(n, "Type", at);
        String comment = fields.text(n, "Comment", at);
        if (n.has("QueryLanguage") && !"JSONPath".equals(n.get("QueryLanguage").asText())) {
            fields.problem(at + ".QueryLanguage: only JSONPath is supported");
        }
        if (type == null) {
            fields.problem(at + ".Type: required");
            return null;
        }
        return switch (type) {
            case "Pass" ->
                new PassState(
                        name,
                        comment,
                        fields.path(n, "InputPath", at),
                        fields.path(n, "OutputPath", at),
                        fields.template(n, "Parameters", at),
                        n.get("Result"),
                        fields.path(n, "ResultPath", at),
                        transition(n, at));
            case "Task" ->
                new TaskState(
                        name,
                        comment,
                        fields.path(n, "InputPath", at),
                        fields.path(n, "OutputPath", at),
                        fields.text(n, "Resource", at),
                        fields.template(n, "Parameters", at),
                        fields.template(n, "ResultSelector", at),
                        fields.path(n, "ResultPath", at),
                        fields.integer(n, "TimeoutSeconds", at),
                        fields.text(n, "TimeoutSecondsPath", at),
                        fields.integer(n, "HeartbeatSeconds", at),
                        fields.text(n, "HeartbeatSecondsPath", at),
                        retryCatch.retriers(n, at),
                        retryCatch.catchers(n, at),
                        transition(n, at));
            case "Choice" ->
                new ChoiceState(
                        name,
                        comment,
                        fields.path(n, "InputPath", at),
                        fields.path(n, "OutputPath", at),
                        choiceRules.choices(n, at),
                        fields.text(n, "Default", at));
            case "Wait" ->
                new WaitState(
                        name,
                        comment,
                        fields.path(n, "InputPath", at),
                        fields.path(n, "OutputPath", at),
                        waitFor(n, at),
                        transition(n, at));
            case "Succeed" ->
                new SucceedState(name, comment, fields.path(n, "InputPath", at), fields.path(n, "OutputPath", at));
            case "Fail" ->
                new FailState(
                        name,
                        comment,
                        fields.text(n, "Error", at),
                        fields.text(n, "ErrorPath", at),
                        fields.text(n, "Cause", at),
                        fields.text(n, "CausePath", at));
            case "Map" -> map(name, comment, n, at);
            case "Parallel" ->
                new ParallelState(
                        name,
                        comment,
                        fields.path(n, "InputPath", at),
                        fields.path(n, "OutputPath", at),
                        branches(n, at),
                        fields.template(n, "Parameters", at),
                        fields.template(n, "ResultSelector", at),
                        fields.path(n, "ResultPath", at),
                        retryCatch.retriers(n, at),
                        retryCatch.catchers(n, at),
                        transition(n, at));
            default -> {
                fields.problem(at + ".Type: unknown state type " + type);
                yield null;
            }
        };
    }

    private MapState map(String name, String comment, JsonNode n, String at) {
        JsonNode processor = n.has("ItemProcessor") ? n.get("ItemProcessor") : n.get("Iterator");
        String processorAt = at + (n.has("ItemProcessor") ? ".ItemProcessor" : ".Iterator");
        StateGraph graph = null;
        if (processor == null || !processor.isObject()) {
            fields.problem(at + ".ItemProcessor: required object (or the legacy Iterator)");
        } else {
            JsonNode config = processor.path("ProcessorConfig").path("Mode");
            if (config.isTextual() && !"INLINE".equals(config.asText())) {
                fields.problem(
                        processorAt + ".ProcessorConfig.Mode: only INLINE is supported, found " + config.asText());
            }
            graph = graph(processor, processorAt);
        }
        if (n.has("ItemSelector") && n.has("Parameters")) {
            fields.problem(at + ": use ItemSelector or the legacy Parameters, not both");
        }
        JsonNode selector =
                n.has("ItemSelector") ? fields.template(n, "ItemSelector", at) : fields.template(n, "Parameters", at);
        Integer maxConcurrency = fields.integer(n, "MaxConcurrency", at);
        return new MapState(
                name,
                comment,
                fields.path(n, "InputPath", at),
                fields.path(n, "OutputPath", at),
                fields.path(n, "ItemsPath", at),
                selector,
                graph,
                maxConcurrency == null ? 0 : maxConcurrency,
                fields.text(n, "MaxConcurrencyPath", at),
                fields.template(n, "ResultSelector", at),
                fields.path(n, "ResultPath", at),
                retryCatch.retriers(n, at),
                retryCatch.catchers(n, at),
                transition(n, at));
    }

    private List<StateGraph> branches(JsonNode n, String at) {
        List<StateGraph> branches = new ArrayList<>();
        JsonNode array = n.get("Branches");
        if (array == null || !array.isArray()) {
            fields.problem(at + ".Branches: required array");
            return branches;
        }
        for (int i = 0; i < array.size(); i++) {
            branches.add(graph(array.get(i), at + ".Branches[" + i + "]"));
        }
        return branches;
    }

    private Transition transition(JsonNode n, String at) {
        String next = fields.text(n, "Next", at);
        boolean end = n.path("End").asBoolean(false);
        if (n.has("End") && !n.get("End").isBoolean()) {
            fields.problem(at + ".End: must be a boolean");
        }
        if (next != null && end) {
            fields.problem(at + ": has both Next and End");
        }
        if (next != null) {
            return new Transition.Next(next);
        }
        // Null here means "neither Next nor End"; DefinitionValidator reports it as a graph problem.
        return end ? new Transition.End() : null;
    }

    private WaitFor waitFor(JsonNode n, String at) {
        List<WaitFor> found = new ArrayList<>();
        if (n.has("Seconds")) {
            JsonNode s = n.get("Seconds");
            if (!s.canConvertToLong() || !s.isIntegralNumber()) {
                fields.problem(at + ".Seconds: must be an integer");
            } else {
                found.add(new WaitFor.Seconds(s.asLong()));
            }
        }
        if (n.has("SecondsPath")) {
            found.add(new WaitFor.SecondsPath(fields.text(n, "SecondsPath", at)));
        }
        if (n.has("Timestamp")) {
            String ts = fields.text(n, "Timestamp", at);
            try {
                found.add(new WaitFor.Timestamp(Instant.parse(ts)));
            } catch (DateTimeParseException | NullPointerException e) {
                fields.problem(at + ".Timestamp: not an RFC 3339 timestamp: " + ts);
            }
        }
        if (n.has("TimestampPath")) {
            found.add(new WaitFor.TimestampPath(fields.text(n, "TimestampPath", at)));
        }
        if (found.size() > 1) {
            fields.problem(at + ": a Wait state takes exactly one of Seconds, SecondsPath, Timestamp, TimestampPath");
        }
        return found.isEmpty() ? null : found.getFirst();
    }
}
