package dev.interlock.statemachine.asl;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A scenario's scripted Task answers, the same for every engine that runs it in Java (our engine through its task
 * resources, moto through {@link ScriptedAwsEndpoint}). Top-level Tasks answer by state name, the Map-internal
 * evaluator Tasks by the item's traitType (one sequence shared by both Maps); each call takes the next step and the
 * last step repeats. A call the script cannot answer is a problem: it is recorded, the engine's execution is stopped
 * through {@code abort}, and the call fails with {@code Scenario.ScriptProblem}.
 */
final class ScenarioScript {

    static final String SCRIPT_PROBLEM = "Scenario.ScriptProblem";
    private static final int MAX_INVOCATIONS = 500;

    /** One scripted step: the Task's result, or its failure with an error name and a cause. */
    sealed interface Step {
        record Return(JsonNode value) implements Step {}

        record Throw(String error, String cause) implements Step {}
    }

    private final Scenarios.Scenario scenario;
    private final Consumer<String> abort;
    private final Map<String, Integer> used = new HashMap<>();
    private final List<String> problems = new ArrayList<>();
    private int invocations;

    /** {@code abort} stops the engine's execution with the problem found (as the node runner aborts its run). */
    ScenarioScript(Scenarios.Scenario scenario, Consumer<String> abort) {
        this.scenario = scenario;
        this.abort = abort;
    }

    synchronized List<String> problems() {
        return List.copyOf(problems);
    }

    /** The answer of a top-level Task state's next invocation. */
    Step topLevel(String state) {
        JsonNode steps = scenario.results(state);
        synchronized (this) {
            if (++invocations > MAX_INVOCATIONS) {
                return abort("more than " + MAX_INVOCATIONS + " invocations: the script never leaves a loop");
            }
            if (steps == null) {
                return abort(state + " was invoked but the scenario scripts no result for it");
            }
        }
        return step(next(steps, state), state);
    }

    /** The answer of a Map-internal evaluator Task (state {@code state}) for the trait in its request. */
    Step evaluator(String state, JsonNode request) {
        String traitType = request.path("traitType").asText(null);
        JsonNode steps = scenario.evaluator(traitType);
        if (steps == null) {
            return abort(
                    state + " evaluated trait " + traitType + " but the scenario scripts no evaluator result for it");
        }
        return step(next(steps, "evaluator:" + traitType), state + "[" + traitType + "]");
    }

    private synchronized JsonNode next(JsonNode steps, String key) {
        int n = used.merge(key, 1, Integer::sum) - 1;
        if (!steps.isArray()) {
            return steps;
        }
        return steps.get(Math.min(n, steps.size() - 1));
    }

    private Step abort(String problem) {
        synchronized (this) {
            problems.add(problem);
        }
        abort.accept(problem);
        return new Step.Throw(SCRIPT_PROBLEM, problem);
    }

    private static Step step(JsonNode step, String where) {
        if (step != null && step.has("throw")) {
            JsonNode thrown = step.get("throw");
            return new Step.Throw(
                    thrown.get("error").asText(), thrown.path("cause").asText(""));
        }
        if (step != null && step.has("return")) {
            return new Step.Return(step.get("return").deepCopy());
        }
        throw new IllegalArgumentException(
                where + ": a scripted step is {\"return\": ...} or {\"throw\": {\"error\", \"cause\"}}");
    }
}
