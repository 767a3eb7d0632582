package dev.interlock.statemachine.model;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.statemachine.intrinsics.IntrinsicException;
import dev.interlock.statemachine.intrinsics.IntrinsicParser;
import dev.interlock.statemachine.json.JsonPaths;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds structural problems in a parsed definition: dangling StartAt/Next/Default/Catch targets, unreachable
 * states, states without Next or End, empty Choices, misplaced States.ALL, out-of-range retry values and
 * paths or intrinsic calls that do not parse. Nested graphs (branches, item processors) are checked in scope.
 */
public final class DefinitionValidator {

    private final List<ValidationProblem> problems = new ArrayList<>();

    private DefinitionValidator() {}

    /** Every problem found; empty when the definition is sound. */
    public static List<ValidationProblem> validate(StateMachineDefinition definition) {
        DefinitionValidator validator = new DefinitionValidator();
        if (definition.timeoutSeconds() != null && definition.timeoutSeconds() <= 0) {
            validator.problem("TimeoutSeconds", "must be a positive integer");
        }
        validator.graph(definition.graph(), "");
        return List.copyOf(validator.problems);
    }

    private void graph(StateGraph graph, String prefix) {
        Map<String, State> states = graph.states();
        if (states.isEmpty()) {
            problem(prefix + "States", "must contain at least one state");
        }
        if (graph.startAt() == null || !states.containsKey(graph.startAt())) {
            problem(prefix + "StartAt", "names no state of this graph: " + graph.startAt());
        }
        for (State state : states.values()) {
            String at = prefix + "States." + state.name();
            state(state, at, prefix);
            for (String target : state.successors()) {
                if (target != null && !states.containsKey(target)) {
                    problem(at, "transitions to a state that does not exist here: " + target);
                }
            }
        }
        Set<String> reachable = reachable(graph);
        for (String name : states.keySet()) {
            if (!reachable.contains(name)) {
                problem(prefix + "States." + name, "is not reachable from StartAt");
            }
        }
    }

    private static Set<String> reachable(StateGraph graph) {
        Set<String> seen = new LinkedHashSet<>();
        Deque<String> todo = new ArrayDeque<>();
        if (graph.startAt() != null && graph.states().containsKey(graph.startAt())) {
            todo.add(graph.startAt());
        }
        while (!todo.isEmpty()) {
            String name = todo.poll();
            if (seen.add(name)) {
                graph.state(name).successors().stream()
                        .filter(n -> n != null && graph.states().containsKey(n))
                        .forEach(todo::add);
            }
        }
        return seen;
    }

    private void state(State state, String at, String prefix) {
        switch (state) {
            case PassState p -> {
                transition(p.transition(), at);
                paths(at, p.inputPath(), p.outputPath());
                referencePath(at + ".ResultPath", p.resultPath());
                template(p.parameters(), at + ".Parameters");
            }
            case TaskState t -> {
                transition(t.transition(), at);
                paths(at, t.inputPath(), t.outputPath());
                referencePath(at + ".ResultPath", t.resultPath());
                if (t.resource() == null || t.resource().isBlank()) {
                    problem(at + ".Resource", "required");
                }
                if (t.timeoutSeconds() != null && t.timeoutSeconds() <= 0) {
                    problem(at + ".TimeoutSeconds", "must be a positive integer");
                }
                if (t.timeoutSeconds() != null && t.timeoutSecondsPath() != null) {
                    problem(at, "has both TimeoutSeconds and TimeoutSecondsPath");
                }
                if (t.heartbeatSeconds() != null && t.heartbeatSecondsPath() != null) {
                    problem(at, "has both HeartbeatSeconds and HeartbeatSecondsPath");
                }
                if (t.heartbeatSeconds() != null
                        && t.timeoutSeconds() != null
                        && t.heartbeatSeconds() >= t.timeoutSeconds()) {
                    problem(at + ".HeartbeatSeconds", "must be smaller than TimeoutSeconds");
                }
                template(t.parameters(), at + ".Parameters");
                template(t.resultSelector(), at + ".ResultSelector");
                recovery(t.retry(), t.catchers(), at);
            }
            case ChoiceState c -> {
                paths(at, c.inputPath(), c.outputPath());
                if (c.choices().isEmpty()) {
                    problem(at + ".Choices", "a Choice state needs at least one choice rule");
                }
                for (int i = 0; i < c.choices().size(); i++) {
                    rule(c.choices().get(i).rule(), at + ".Choices[" + i + "]");
                }
            }
            case WaitState w -> {
                transition(w.transition(), at);
                paths(at, w.inputPath(), w.outputPath());
                switch (w.waitFor()) {
                    case null -> problem(at, "needs one of Seconds, SecondsPath, Timestamp, TimestampPath");
                    case WaitFor.Seconds s when s.seconds() < 0 -> problem(at + ".Seconds", "must not be negative");
                    case WaitFor.SecondsPath p -> path(at + ".SecondsPath", p.path());
                    case WaitFor.TimestampPath p -> path(at + ".TimestampPath", p.path());
                    default -> {}
                }
            }
            case SucceedState s -> paths(at, s.inputPath(), s.outputPath());
            case FailState f -> {
                if (f.error() != null && f.errorPath() != null) {
                    problem(at, "has both Error and ErrorPath");
                }
                if (f.cause() != null && f.causePath() != null) {
                    problem(at, "has both Cause and CausePath");
                }
                expression(at + ".ErrorPath", f.errorPath());
                expression(at + ".CausePath", f.causePath());
            }
            case MapState m -> {
                transition(m.transition(), at);
                paths(at, m.inputPath(), m.outputPath());
                referencePath(at + ".ResultPath", m.resultPath());
                path(at + ".ItemsPath", m.itemsPath());
                if (m.maxConcurrency() < 0) {
                    problem(at + ".MaxConcurrency", "must not be negative");
                }
                template(m.itemSelector(), at + ".ItemSelector");
                template(m.resultSelector(), at + ".ResultSelector");
                recovery(m.retry(), m.catchers(), at);
                if (m.itemProcessor() != null) {
                    graph(m.itemProcessor(), at + ".ItemProcessor.");
                }
            }
            case ParallelState p -> {
                transition(p.transition(), at);
                paths(at, p.inputPath(), p.outputPath());
                referencePath(at + ".ResultPath", p.resultPath());
                template(p.parameters(), at + ".Parameters");
                template(p.resultSelector(), at + ".ResultSelector");
                recovery(p.retry(), p.catchers(), at);
                if (p.branches().isEmpty()) {
                    problem(at + ".Branches", "a Parallel state needs at least one branch");
                }
                for (int i = 0; i < p.branches().size(); i++) {
                    graph(p.branches().get(i), at + ".Branches[" + i + "].");
                }
            }
        }
    }

    private void transition(Transition transition, String at) {
        if (transition == null) {
            problem(at, "needs Next or End");
        }
    }

    private void recovery(List<Retrier> retriers, List<Catcher> catchers, String at) {
        for (int i = 0; i < retriers.size(); i++) {
            Retrier r = retriers.get(i);
            String rAt = at + ".Retry[" + i + "]";
            errorEquals(r.errorEquals(), rAt, i == retriers.size() - 1);
            if (r.maxAttempts() < 0) {
                problem(rAt + ".MaxAttempts", "must not be negative");
            }
            if (r.intervalSeconds() < 1) {
                problem(rAt + ".IntervalSeconds", "must be at least 1");
            }
            if (r.backoffRate() < 1.0) {
                problem(rAt + ".BackoffRate", "must be at least 1.0");
            }
            if (r.maxDelaySeconds() != null && r.maxDelaySeconds() < 1) {
                problem(rAt + ".MaxDelaySeconds", "must be at least 1");
            }
        }
        for (int i = 0; i < catchers.size(); i++) {
            Catcher c = catchers.get(i);
            String cAt = at + ".Catch[" + i + "]";
            errorEquals(c.errorEquals(), cAt, i == catchers.size() - 1);
            referencePath(cAt + ".ResultPath", c.resultPath());
        }
    }

    private void errorEquals(List<String> errors, String at, boolean last) {
        if (errors.isEmpty()) {
            problem(at + ".ErrorEquals", "must not be empty");
        }
        if (errors.contains("States.ALL")) {
            if (errors.size() > 1) {
                problem(at + ".ErrorEquals", "States.ALL must appear alone");
            }
            if (!last) {
                problem(at + ".ErrorEquals", "States.ALL must be in the last entry");
            }
        }
    }

    private void rule(ChoiceRule rule, String at) {
        switch (rule) {
            case ChoiceRule.And and -> and.rules().forEach(r -> rule(r, at + ".And"));
            case ChoiceRule.Or or -> or.rules().forEach(r -> rule(r, at + ".Or"));
            case ChoiceRule.Not not -> rule(not.rule(), at + ".Not");
            case ChoiceRule.Comparison c -> {
                path(at + ".Variable", c.variable());
                if (c.operandIsPath()) {
                    path(at + "." + c.operator().fieldName(true), c.operand().asText());
                }
            }
        }
    }

    private void paths(String at, String inputPath, String outputPath) {
        path(at + ".InputPath", inputPath);
        path(at + ".OutputPath", outputPath);
    }

    private void path(String at, String path) {
        if (path == null) {
            return;
        }
        String plain = path.startsWith("$$") ? path.substring(1) : path;
        if (!JsonPaths.isValid(plain)) {
            problem(at, "not a valid JSONPath: " + path);
        }
    }

    private void referencePath(String at, String path) {
        if (path != null && !JsonPaths.isReferencePath(path)) {
            problem(at, "not a reference path (a JSONPath selecting one node): " + path);
        }
    }

    private void expression(String at, String expression) {
        if (expression == null) {
            return;
        }
        if (IntrinsicParser.looksLikeCall(expression)) {
            try {
                IntrinsicParser.parse(expression);
            } catch (IntrinsicException e) {
                problem(at, e.getMessage());
            }
        } else {
            path(at, expression);
        }
    }

    private void template(JsonNode template, String at) {
        if (template == null) {
            return;
        }
        if (template.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> fields = template.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                String fieldAt = at + "." + field.getKey();
                if (field.getKey().endsWith(".$")) {
                    if (!field.getValue().isTextual()) {
                        problem(fieldAt, "a field ending in .$ must hold a path or an intrinsic call");
                    } else {
                        expression(fieldAt, field.getValue().asText());
                    }
                } else {
                    template(field.getValue(), fieldAt);
                }
            }
        } else if (template.isArray()) {
            for (int i = 0; i < template.size(); i++) {
                template(template.get(i), at + "[" + i + "]");
            }
        }
    }

    private void problem(String location, String message) {
        problems.add(new ValidationProblem(location, message));
    }
}
