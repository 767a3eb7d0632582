package dev.interlock.statemachine.asl;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A must-analysis over the state graph: which JSONPaths are present, with which type, whichever way a state is
 * reached. Task outputs come from the documented contract (contract.json), so a Choice, Wait or Parameters
 * reference that the contract does not guarantee at that point is reported — in a real execution it would be a
 * {@code States.Runtime} failure that no Catch can handle.
 */
final class GuaranteedPaths {

    private static final String SNS_PUBLISH = "arn:aws:states:::sns:publish";
    private static final String FACT = "fact:";
    private static final Pattern QUOTED = Pattern.compile("'(?:\\\\.|[^'\\\\])*'");
    private static final Pattern REFERENCE = Pattern.compile("\\$\\$?(?:\\.[A-Za-z0-9_]+)*");

    private final JsonNode contract;
    private final List<String> problems = new ArrayList<>();

    GuaranteedPaths(JsonNode contract) {
        this.contract = contract;
    }

    /** Every unguaranteed or mistyped read in the definition, as "State: message"; empty when the definition is total. */
    List<String> check(JsonNode definition) {
        problems.clear();
        analyse(definition.get("States"), definition.get("StartAt").asText(), Map.of(), true);
        return List.copyOf(problems);
    }

    /** The paths guaranteed on entry to each state of one (top-level or item-processor) machine. */
    Map<String, Map<String, String>> analyse(
            JsonNode states, String startAt, Map<String, String> startIn, boolean topLevel) {
        Map<String, Map<String, String>> in = new HashMap<>();
        in.put(startAt, new TreeMap<>(startIn));
        Deque<String> work = new ArrayDeque<>(List.of(startAt));
        while (!work.isEmpty()) {
            String name = work.pop();
            JsonNode state = states.get(name);
            for (Edge edge : transfer(name, state, in.get(name), topLevel && name.equals(startAt))) {
                Map<String, String> before = in.get(edge.target());
                Map<String, String> merged = before == null ? new TreeMap<>(edge.out()) : intersect(before, edge.out());
                if (!merged.equals(before)) {
                    in.put(edge.target(), merged);
                    work.push(edge.target());
                }
            }
        }
        in.forEach(
                (name, guaranteed) -> checkReads(name, states.get(name), guaranteed, topLevel && name.equals(startAt)));
        states.properties().forEach(e -> {
            JsonNode processor = e.getValue().path("ItemProcessor");
            if (!processor.isMissingNode()) {
                analyse(
                        processor.get("States"),
                        processor.get("StartAt").asText(),
                        fields("$", contract.get("resolvedTrait")),
                        false);
            }
        });
        return in;
    }

    private record Edge(String target, Map<String, String> out) {}

    private List<Edge> transfer(String name, JsonNode state, Map<String, String> in, boolean isStart) {
        List<Edge> edges = new ArrayList<>();
        String type = state.get("Type").asText();
        switch (type) {
            case "Pass" -> {
                Map<String, String> out = isStart
                        ? fields("$", contract.get("executionInput"))
                        : write(in, resultPath(state), passResult(state, in));
                next(state, out, edges);
            }
            case "Task" -> {
                Map<String, String> result = new TreeMap<>();
                taskResult(name, state, result);
                next(state, write(in, resultPath(state), result), edges);
                catches(state, in, edges);
            }
            case "Map" -> {
                Map<String, String> out = write(in, resultPath(state), Map.of());
                out.put(resultPath(state), "array");
                next(state, out, edges);
                catches(state, in, edges);
            }
            case "Choice" -> {
                for (JsonNode rule : state.get("Choices")) {
                    Map<String, String> out = new TreeMap<>(in);
                    for (String variable : proceedTests(rule)) {
                        String prefix = FACT + variable + "=proceed|";
                        in.forEach((k, v) -> {
                            if (k.startsWith(prefix)) {
                                out.put(k.substring(prefix.length()), v);
                            }
                        });
                    }
                    edges.add(new Edge(rule.get("Next").asText(), out));
                }
                if (state.has("Default")) {
                    edges.add(new Edge(state.get("Default").asText(), in));
                }
            }
            case "Wait" -> next(state, in, edges);
            case "Succeed", "Fail" -> {}
            default -> problems.add(name + ": unsupported state type " + type);
        }
        return edges;
    }

    private static void next(JsonNode state, Map<String, String> out, List<Edge> edges) {
        if (state.has("Next")) {
            edges.add(new Edge(state.get("Next").asText(), out));
        }
    }

    private static void catches(JsonNode state, Map<String, String> in, List<Edge> edges) {
        for (JsonNode catcher : state.path("Catch")) {
            String path = catcher.path("ResultPath").asText("$");
            // Step Functions always sets Error; Cause is not relied upon.
            edges.add(new Edge(catcher.get("Next").asText(), write(in, path, Map.of("Error", "string"))));
        }
    }

    private static String resultPath(JsonNode state) {
        return state.path("ResultPath").asText("$");
    }

    /** Result fields relative to the result root; keys of the form "fact:…" are only guaranteed once a Choice saw result == proceed. */
    private void taskResult(String name, JsonNode state, Map<String, String> result) {
        String resource = state.path("Resource").asText();
        if (resource.equals(Asl.LAMBDA_WAIT_FOR_TOKEN)) {
            // The result is what SendTaskSuccess sends: the run-checker's answer shape (CONTRACT.md §4).
            result.putAll(relative(fields("$", contract.path("runChecker").path("output"))));
            return;
        }
        switch (resource) {
            case "${OrchestratorFunctionArn}" -> {
                String action = state.path("Parameters").path("action").asText();
                JsonNode spec = contract.path("orchestrator").path("actions").path(action);
                if (spec.isMissingNode()) {
                    problems.add(name + ": orchestrator action '" + action + "' is not in contract.json");
                    return;
                }
                result.putAll(relative(fields("$", contract.path("orchestrator").path("envelope"))));
                result.putAll(relative(fields("$.payload", spec.path("payload"))));
                relative(fields("$.payload", spec.path("payloadOnProceed")))
                        .forEach((k, v) -> result.put(FACT + "result=proceed|" + k, v));
            }
            case "${TriggerFunctionArn}" ->
                result.putAll(relative(fields("$", contract.path("trigger").path("output"))));
            case "${RunCheckerFunctionArn}" ->
                result.putAll(relative(fields("$", contract.path("runChecker").path("output"))));
            case "${EvaluatorFunctionArn}" ->
                result.putAll(relative(fields("$", contract.path("evaluator").path("output"))));
            case SNS_PUBLISH ->
                result.putAll(relative(fields("$", contract.path("snsPublish").path("output"))));
            default -> problems.add(name + ": resource " + resource + " has no documented output");
        }
    }

    private static Map<String, String> passResult(JsonNode state, Map<String, String> in) {
        Map<String, String> result = new TreeMap<>();
        JsonNode template = state.has("Result") ? state.get("Result") : state.get("Parameters");
        if (template == null) {
            return null;
        }
        template.properties().forEach(e -> {
            String key = e.getKey();
            if (key.endsWith(".$")) {
                String expression = e.getValue().asText();
                String type = expression.startsWith("States.MathAdd(")
                        ? "integer"
                        : expression.startsWith("$") ? in.getOrDefault(expression, "any") : "any";
                result.put(key.substring(0, key.length() - 2), type);
            } else {
                result.put(key, typeOf(e.getValue()));
            }
        });
        return result;
    }

    private static String typeOf(JsonNode value) {
        if (value.isTextual()) {
            return "string";
        }
        if (value.isBoolean()) {
            return "boolean";
        }
        if (value.isIntegralNumber()) {
            return "integer";
        }
        if (value.isNumber()) {
            return "number";
        }
        if (value.isArray()) {
            return "array";
        }
        return value.isObject() ? "object" : "any";
    }

    /** The state's data after writing {@code result} (relative fields) at {@code resultPath}; null result = unchanged input. */
    private static Map<String, String> write(Map<String, String> in, String resultPath, Map<String, String> result) {
        if (result == null) {
            return in;
        }
        Map<String, String> out = new TreeMap<>();
        if (!resultPath.equals("$")) {
            in.forEach((k, v) -> {
                String path = k.startsWith(FACT) ? k.substring(FACT.length(), k.indexOf('=')) : k;
                if (!path.equals(resultPath) && !path.startsWith(resultPath + ".")) {
                    out.put(k, v);
                }
            });
            out.put(resultPath, "object");
        }
        String base = resultPath.equals("$") ? "$" : resultPath;
        result.forEach((k, v) -> {
            if (k.startsWith(FACT)) {
                out.put(FACT + base + "." + k.substring(FACT.length()).replace("|", "|" + base + "."), v);
            } else {
                addWithParents(out, base + "." + k, v);
            }
        });
        return out;
    }

    private static void addWithParents(Map<String, String> out, String path, String type) {
        out.put(path, type);
        for (int i = path.lastIndexOf('.'); i > 1; i = path.lastIndexOf('.', i - 1)) {
            out.putIfAbsent(path.substring(0, i), "object");
        }
    }

    private static Map<String, String> relative(Map<String, String> absolute) {
        Map<String, String> out = new TreeMap<>();
        absolute.forEach((k, v) -> out.put(k.substring(2), v));
        return out;
    }

    /** Always-present fields of a contract object (nested objects expanded); a type ending in '?' is optional. */
    static Map<String, String> fields(String prefix, JsonNode spec) {
        Map<String, String> out = new LinkedHashMap<>();
        spec.properties().forEach(e -> {
            String path = prefix + "." + e.getKey();
            JsonNode type = e.getValue();
            if (type.isObject()) {
                out.put(path, "object");
                out.putAll(fields(path, type));
            } else if (!type.asText().endsWith("?")) {
                String t = type.asText();
                out.put(path, t.startsWith("array") ? "array" : t.equals("resolvedTrait") ? "object" : t);
            }
        });
        return out;
    }

    private static Map<String, String> intersect(Map<String, String> a, Map<String, String> b) {
        Map<String, String> out = new TreeMap<>();
        a.forEach((k, v) -> {
            String other = b.get(k);
            if (other != null) {
                out.put(k, other.equals(v) ? v : "any");
            }
        });
        return out;
    }

    /** Variables that a rule requires to equal "proceed" (directly or as a conjunct). */
    private static List<String> proceedTests(JsonNode rule) {
        List<String> out = new ArrayList<>();
        if (rule.has("Variable") && rule.path("StringEquals").asText("").equals("proceed")) {
            out.add(rule.get("Variable").asText());
        }
        for (JsonNode conjunct : rule.path("And")) {
            out.addAll(proceedTests(conjunct));
        }
        return out;
    }

    private void checkReads(String name, JsonNode state, Map<String, String> in, boolean isStart) {
        checkTemplate(name, state.path("Parameters"), in);
        checkTemplate(name, state.path("ItemSelector"), in);
        for (String field : List.of("InputPath", "ItemsPath")) {
            if (state.has(field)) {
                require(
                        name,
                        field,
                        state.get(field).asText(),
                        in,
                        field.equals("ItemsPath") ? Set.of("array") : Set.of());
            }
        }
        if (state.has("OutputPath") && !isStart) {
            require(name, "OutputPath", state.get("OutputPath").asText(), in, Set.of());
        }
        for (String field : List.of("SecondsPath", "HeartbeatSecondsPath", "TimeoutSecondsPath")) {
            if (state.has(field)) {
                require(name, field, state.get(field).asText(), in, Set.of("integer"));
            }
        }
        if (state.has("TimestampPath")) {
            require(name, "TimestampPath", state.get("TimestampPath").asText(), in, Set.of("string"));
        }
        for (JsonNode rule : state.path("Choices")) {
            checkRule(name, rule, in);
        }
    }

    private void checkRule(String name, JsonNode rule, Map<String, String> in) {
        for (String op : List.of("And", "Or")) {
            for (JsonNode sub : rule.path(op)) {
                checkRule(name, sub, in);
            }
        }
        if (rule.has("Not")) {
            checkRule(name, rule.get("Not"), in);
        }
        if (!rule.has("Variable")) {
            return;
        }
        rule.properties().forEach(e -> {
            String op = e.getKey();
            if (op.equals("Variable") || op.equals("Next") || op.equals("IsPresent")) {
                return;
            }
            Set<String> types = op.startsWith("String") || op.startsWith("Timestamp")
                    ? Set.of("string")
                    : op.startsWith("Numeric")
                            ? Set.of("integer", "number")
                            : op.startsWith("Boolean") ? Set.of("boolean") : Set.of();
            if (!rule.has("IsPresent")) {
                require(name, "Variable", rule.get("Variable").asText(), in, types);
            }
            if (op.endsWith("Path")) {
                require(name, op, e.getValue().asText(), in, types);
            }
        });
    }

    private void checkTemplate(String name, JsonNode template, Map<String, String> in) {
        template.properties().forEach(e -> {
            if (e.getKey().endsWith(".$")) {
                for (String reference : references(e.getValue().asText())) {
                    require(name, e.getKey(), reference, in, Set.of());
                }
            } else if (e.getValue().isObject()) {
                checkTemplate(name, e.getValue(), in);
            }
        });
    }

    /** The JSONPath references in a Parameters value: the path itself, or every path argument of an intrinsic function. */
    static List<String> references(String expression) {
        if (!expression.startsWith("States.")) {
            return List.of(expression);
        }
        Matcher m = REFERENCE.matcher(QUOTED.matcher(expression).replaceAll("''"));
        List<String> out = new ArrayList<>();
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }

    private void require(String name, String field, String path, Map<String, String> in, Set<String> types) {
        if (path.startsWith("$$")) {
            List<String> context = new ArrayList<>();
            contract.path("contextPaths").forEach(p -> context.add(p.asText()));
            if (!context.contains(path)) {
                problems.add(name + ": " + field + " reads context path " + path + " which is not among " + context);
            }
            return;
        }
        if (path.equals("$")) {
            return;
        }
        String type = in.get(path);
        if (type == null) {
            problems.add(
                    name + ": " + field + " reads " + path + " which is not guaranteed on every path to this state");
        } else if (!types.isEmpty() && !type.equals("any") && !types.contains(type)) {
            problems.add(
                    name + ": " + field + " reads " + path + " of type " + type + " where " + types + " is needed");
        }
    }
}
