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
import java.util.Optional;

/**
 * Turns ASL JSON into a {@link StateMachineDefinition}. Shape errors (wrong JSON types, unknown state types) are
 * collected and thrown together; graph problems (dangling names, unreachable states) are left to
 * {@link DefinitionValidator} so that a broken graph can still be inspected.
 */
public final class AslParser {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final List<String> problems = new ArrayList<>();

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
        if (!parser.problems.isEmpty()) {
            throw new AslParseException(parser.problems);
        }
        return definition;
    }

    private StateMachineDefinition definition(ObjectNode root) {
        String queryLanguage = text(root, "QueryLanguage", "$");
        if (queryLanguage != null && !"JSONPath".equals(queryLanguage)) {
            problems.add("$.QueryLanguage: only JSONPath is supported, found " + queryLanguage);
        }
        StateGraph graph = graph(root, "$");
        return new StateMachineDefinition(
                text(root, "Comment", "$"), graph, integer(root, "TimeoutSeconds", "$"), text(root, "Version", "$"));
    }

    private StateGraph graph(JsonNode node, String where) {
        String startAt = text(node, "StartAt", where);
        if (startAt == null) {
            problems.add(where + ".StartAt: required");
        }
        Map<String, State> states = new LinkedHashMap<>();
        JsonNode statesNode = node.get("States");
        if (statesNode == null || !statesNode.isObject()) {
            problems.add(where + ".States: required object");
        } else {
            Iterator<Map.Entry<String, JsonNode>> fields = statesNode.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> e = fields.next();
                String at = where + ".States." + e.getKey();
                if (!e.getValue().isObject()) {
                    problems.add(at + ": a state must be an object");
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
        String type = text(n, "Type", at);
        String comment = text(n, "Comment", at);
        if (n.has("QueryLanguage") && !"JSONPath".equals(n.get("QueryLanguage").asText())) {
            problems.add(at + ".QueryLanguage: only JSONPath is supported");
        }
        if (type == null) {
            problems.add(at + ".Type: required");
            return null;
        }
        return switch (type) {
            case "Pass" ->
                new PassState(
                        name,
                        comment,
                        path(n, "InputPath", at),
                        path(n, "OutputPath", at),
                        template(n, "Parameters", at),
                        n.get("Result"),
                        path(n, "ResultPath", at),
                        transition(n, at));
            case "Task" ->
                new TaskState(
                        name,
                        comment,
                        path(n, "InputPath", at),
                        path(n, "OutputPath", at),
                        text(n, "Resource", at),
                        template(n, "Parameters", at),
                        template(n, "ResultSelector", at),
                        path(n, "ResultPath", at),
                        integer(n, "TimeoutSeconds", at),
                        text(n, "TimeoutSecondsPath", at),
                        integer(n, "HeartbeatSeconds", at),
                        text(n, "HeartbeatSecondsPath", at),
                        retriers(n, at),
                        catchers(n, at),
                        transition(n, at));
            case "Choice" ->
                new ChoiceState(
                        name,
                        comment,
                        path(n, "InputPath", at),
                        path(n, "OutputPath", at),
                        choices(n, at),
                        text(n, "Default", at));
            case "Wait" ->
                new WaitState(
                        name,
                        comment,
                        path(n, "InputPath", at),
                        path(n, "OutputPath", at),
                        waitFor(n, at),
                        transition(n, at));
            case "Succeed" -> new SucceedState(name, comment, path(n, "InputPath", at), path(n, "OutputPath", at));
            case "Fail" ->
                new FailState(
                        name,
                        comment,
                        text(n, "Error", at),
                        text(n, "ErrorPath", at),
                        text(n, "Cause", at),
                        text(n, "CausePath", at));
            case "Map" -> map(name, comment, n, at);
            case "Parallel" ->
                new ParallelState(
                        name,
                        comment,
                        path(n, "InputPath", at),
                        path(n, "OutputPath", at),
                        branches(n, at),
                        template(n, "Parameters", at),
                        template(n, "ResultSelector", at),
                        path(n, "ResultPath", at),
                        retriers(n, at),
                        catchers(n, at),
                        transition(n, at));
            default -> {
                problems.add(at + ".Type: unknown state type " + type);
                yield null;
            }
        };
    }

    private MapState map(String name, String comment, JsonNode n, String at) {
        JsonNode processor = n.has("ItemProcessor") ? n.get("ItemProcessor") : n.get("Iterator");
        String processorAt = at + (n.has("ItemProcessor") ? ".ItemProcessor" : ".Iterator");
        StateGraph graph = null;
        if (processor == null || !processor.isObject()) {
            problems.add(at + ".ItemProcessor: required object (or the legacy Iterator)");
        } else {
            JsonNode config = processor.path("ProcessorConfig").path("Mode");
            if (config.isTextual() && !"INLINE".equals(config.asText())) {
                problems.add(processorAt + ".ProcessorConfig.Mode: only INLINE is supported, found " + config.asText());
            }
            graph = graph(processor, processorAt);
        }
        if (n.has("ItemSelector") && n.has("Parameters")) {
            problems.add(at + ": use ItemSelector or the legacy Parameters, not both");
        }
        JsonNode selector = n.has("ItemSelector") ? template(n, "ItemSelector", at) : template(n, "Parameters", at);
        Integer maxConcurrency = integer(n, "MaxConcurrency", at);
        return new MapState(
                name,
                comment,
                path(n, "InputPath", at),
                path(n, "OutputPath", at),
                path(n, "ItemsPath", at),
                selector,
                graph,
                maxConcurrency == null ? 0 : maxConcurrency,
                text(n, "MaxConcurrencyPath", at),
                template(n, "ResultSelector", at),
                path(n, "ResultPath", at),
                retriers(n, at),
                catchers(n, at),
                transition(n, at));
    }

    private List<StateGraph> branches(JsonNode n, String at) {
        List<StateGraph> branches = new ArrayList<>();
        JsonNode array = n.get("Branches");
        if (array == null || !array.isArray()) {
            problems.add(at + ".Branches: required array");
            return branches;
        }
        for (int i = 0; i < array.size(); i++) {
            branches.add(graph(array.get(i), at + ".Branches[" + i + "]"));
        }
        return branches;
    }

    private Transition transition(JsonNode n, String at) {
        String next = text(n, "Next", at);
        boolean end = n.path("End").asBoolean(false);
        if (n.has("End") && !n.get("End").isBoolean()) {
            problems.add(at + ".End: must be a boolean");
        }
        if (next != null && end) {
            problems.add(at + ": has both Next and End");
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
                problems.add(at + ".Seconds: must be an integer");
            } else {
                found.add(new WaitFor.Seconds(s.asLong()));
            }
        }
        if (n.has("SecondsPath")) {
            found.add(new WaitFor.SecondsPath(text(n, "SecondsPath", at)));
        }
        if (n.has("Timestamp")) {
            String ts = text(n, "Timestamp", at);
            try {
                found.add(new WaitFor.Timestamp(Instant.parse(ts)));
            } catch (DateTimeParseException | NullPointerException e) {
                problems.add(at + ".Timestamp: not an RFC 3339 timestamp: " + ts);
            }
        }
        if (n.has("TimestampPath")) {
            found.add(new WaitFor.TimestampPath(text(n, "TimestampPath", at)));
        }
        if (found.size() > 1) {
            problems.add(at + ": a Wait state takes exactly one of Seconds, SecondsPath, Timestamp, TimestampPath");
        }
        return found.isEmpty() ? null : found.getFirst();
    }

    private List<ChoiceBranch> choices(JsonNode n, String at) {
        List<ChoiceBranch> branches = new ArrayList<>();
        JsonNode array = n.get("Choices");
        if (array == null) {
            return branches;
        }
        if (!array.isArray()) {
            problems.add(at + ".Choices: must be an array");
            return branches;
        }
        for (int i = 0; i < array.size(); i++) {
            String ruleAt = at + ".Choices[" + i + "]";
            JsonNode r = array.get(i);
            String next = text(r, "Next", ruleAt);
            if (next == null) {
                problems.add(ruleAt + ".Next: required");
            }
            ChoiceRule rule = rule(r, ruleAt);
            if (rule != null) {
                branches.add(new ChoiceBranch(rule, next));
            }
        }
        return branches;
    }

    private ChoiceRule rule(JsonNode r, String at) {
        if (!r.isObject()) {
            problems.add(at + ": a choice rule must be an object");
            return null;
        }
        if (r.has("And") || r.has("Or")) {
            String op = r.has("And") ? "And" : "Or";
            JsonNode array = r.get(op);
            if (!array.isArray() || array.isEmpty()) {
                problems.add(at + "." + op + ": must be a non-empty array");
                return null;
            }
            List<ChoiceRule> rules = new ArrayList<>();
            for (int i = 0; i < array.size(); i++) {
                Optional.ofNullable(rule(array.get(i), at + "." + op + "[" + i + "]"))
                        .ifPresent(rules::add);
            }
            return op.equals("And") ? new ChoiceRule.And(rules) : new ChoiceRule.Or(rules);
        }
        if (r.has("Not")) {
            ChoiceRule inner = rule(r.get("Not"), at + ".Not");
            return inner == null ? null : new ChoiceRule.Not(inner);
        }
        String variable = text(r, "Variable", at);
        ComparisonOperator.Match match = null;
        Iterator<String> names = r.fieldNames();
        while (names.hasNext()) {
            String field = names.next();
            Optional<ComparisonOperator.Match> m = ComparisonOperator.fromField(field);
            if (m.isPresent()) {
                if (match != null) {
                    problems.add(at + ": more than one comparison operator");
                }
                match = m.get();
            }
        }
        if (variable == null) {
            problems.add(at + ".Variable: required");
        }
        if (match == null) {
            problems.add(at + ": no comparison operator (or And/Or/Not)");
            return null;
        }
        JsonNode operand = r.get(match.operator().fieldName(match.path()));
        String opAt = at + "." + match.operator().fieldName(match.path());
        if (match.path()) {
            if (!operand.isTextual()) {
                problems.add(opAt + ": must be a path string");
            }
        } else {
            boolean ok = switch (match.operator().operand()) {
                case STRING, TIMESTAMP -> operand.isTextual();
                case NUMBER -> operand.isNumber();
                case BOOLEAN, TYPE_TEST -> operand.isBoolean();
            };
            if (!ok) {
                problems.add(opAt + ": operand of the wrong JSON type: " + operand);
            }
            if (match.operator().operand() == ComparisonOperator.Operand.TIMESTAMP && operand.isTextual()) {
                try {
                    Instant.parse(operand.asText());
                } catch (DateTimeParseException e) {
                    problems.add(opAt + ": not an RFC 3339 timestamp: " + operand.asText());
                }
            }
        }
        return new ChoiceRule.Comparison(variable, match.operator(), operand, match.path());
    }

    private List<Retrier> retriers(JsonNode n, String at) {
        List<Retrier> retriers = new ArrayList<>();
        JsonNode array = n.get("Retry");
        if (array == null) {
            return retriers;
        }
        if (!array.isArray()) {
            problems.add(at + ".Retry: must be an array");
            return retriers;
        }
        for (int i = 0; i < array.size(); i++) {
            String rAt = at + ".Retry[" + i + "]";
            JsonNode r = array.get(i);
            Integer interval = integer(r, "IntervalSeconds", rAt);
            Integer maxAttempts = integer(r, "MaxAttempts", rAt);
            JsonNode backoff = r.get("BackoffRate");
            if (backoff != null && !backoff.isNumber()) {
                problems.add(rAt + ".BackoffRate: must be a number");
            }
            String jitter = text(r, "JitterStrategy", rAt);
            Retrier.JitterStrategy strategy = Retrier.JitterStrategy.NONE;
            if (jitter != null) {
                try {
                    strategy = Retrier.JitterStrategy.valueOf(jitter);
                } catch (IllegalArgumentException e) {
                    problems.add(rAt + ".JitterStrategy: must be FULL or NONE, found " + jitter);
                }
            }
            retriers.add(new Retrier(
                    errorEquals(r, rAt),
                    interval == null ? Retrier.DEFAULT_INTERVAL_SECONDS : interval,
                    maxAttempts == null ? Retrier.DEFAULT_MAX_ATTEMPTS : maxAttempts,
                    backoff == null || !backoff.isNumber() ? Retrier.DEFAULT_BACKOFF_RATE : backoff.asDouble(),
                    integer(r, "MaxDelaySeconds", rAt),
                    strategy));
        }
        return retriers;
    }

    private List<Catcher> catchers(JsonNode n, String at) {
        List<Catcher> catchers = new ArrayList<>();
        JsonNode array = n.get("Catch");
        if (array == null) {
            return catchers;
        }
        if (!array.isArray()) {
            problems.add(at + ".Catch: must be an array");
            return catchers;
        }
        for (int i = 0; i < array.size(); i++) {
            String cAt = at + ".Catch[" + i + "]";
            JsonNode c = array.get(i);
            String next = text(c, "Next", cAt);
            if (next == null) {
                problems.add(cAt + ".Next: required");
            }
            catchers.add(new Catcher(errorEquals(c, cAt), next, path(c, "ResultPath", cAt)));
        }
        return catchers;
    }

    private List<String> errorEquals(JsonNode n, String at) {
        List<String> errors = new ArrayList<>();
        JsonNode array = n.get("ErrorEquals");
        if (array == null || !array.isArray()) {
            problems.add(at + ".ErrorEquals: required array of strings");
            return errors;
        }
        array.forEach(e -> {
            if (e.isTextual()) {
                errors.add(e.asText());
            } else {
                problems.add(at + ".ErrorEquals: must contain only strings");
            }
        });
        return errors;
    }

    private JsonNode template(JsonNode n, String field, String at) {
        JsonNode value = n.get(field);
        if (value != null && !value.isObject() && field.equals("ResultSelector")) {
            problems.add(at + "." + field + ": must be an object");
        }
        return value;
    }

    /** A path field: "$" when absent, null when explicitly null. */
    private String path(JsonNode n, String field, String at) {
        if (!n.has(field)) {
            return "$";
        }
        JsonNode value = n.get(field);
        if (value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            problems.add(at + "." + field + ": must be a string or null");
            return "$";
        }
        return value.asText();
    }

    private String text(JsonNode n, String field, String at) {
        JsonNode value = n.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            problems.add(at + "." + field + ": must be a string");
            return null;
        }
        return value.asText();
    }

    private Integer integer(JsonNode n, String field, String at) {
        JsonNode value = n.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isIntegralNumber() || !value.canConvertToInt()) {
            problems.add(at + "." + field + ": must be an integer");
            return null;
        }
        return value.asInt();
    }
}
