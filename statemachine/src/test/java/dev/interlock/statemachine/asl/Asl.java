package dev.interlock.statemachine.asl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.statemachine.AslDefinition;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Test access to the ASL definition, its machine-readable contract and the structure of its state graph. */
final class Asl {

    static final ObjectMapper JSON = new ObjectMapper();

    private Asl() {}

    static ObjectNode definition() {
        try {
            return (ObjectNode) JSON.readTree(AslDefinition.load());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode contract() {
        try (InputStream in = Asl.class.getResourceAsStream("/asl/contract.json")) {
            return JSON.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The statemachine module directory: surefire runs tests there, an IDE may run them from the repository root. */
    static Path moduleDir() {
        Path here = Path.of("").toAbsolutePath();
        if (Files.exists(here.resolve("src/main/resources/asl/interlock.asl.json"))) {
            return here;
        }
        return here.resolve("statemachine");
    }

    static Path aslFile() {
        return moduleDir().resolve("src/main/resources/asl/interlock.asl.json");
    }

    /** Every transition out of a state: Next, Choice rules and Default, and Catch targets, in document order. */
    static List<String> successors(JsonNode state) {
        List<String> out = normalSuccessors(state);
        for (JsonNode catcher : state.path("Catch")) {
            out.add(catcher.get("Next").asText());
        }
        return out;
    }

    /** Transitions taken when no error is thrown: Next, Choice rules and Default. */
    static List<String> normalSuccessors(JsonNode state) {
        List<String> out = new ArrayList<>();
        if (state.has("Next")) {
            out.add(state.get("Next").asText());
        }
        for (JsonNode rule : state.path("Choices")) {
            out.add(rule.get("Next").asText());
        }
        if (state.has("Default")) {
            out.add(state.get("Default").asText());
        }
        return out;
    }

    static boolean isTerminal(JsonNode state) {
        String type = state.get("Type").asText();
        return type.equals("Succeed")
                || type.equals("Fail")
                || state.path("End").asBoolean(false);
    }

    static boolean isOrchestratorAction(JsonNode state, OrchestratorAction action) {
        return orchestratorRequest(state).path("action").asText().equals(action.wireName());
    }

    /** The callback pattern's resource: the function is called with the task token and the task waits for it. */
    static final String LAMBDA_WAIT_FOR_TOKEN = "arn:aws:states:::lambda:invoke.waitForTaskToken";

    /**
     * The request a state sends the orchestrator: its Parameters when the function is the Resource, the Payload when
     * it is called through {@value #LAMBDA_WAIT_FOR_TOKEN}; missing when the state does not call the orchestrator.
     */
    static JsonNode orchestratorRequest(JsonNode state) {
        String resource = state.path("Resource").asText();
        if (resource.equals("${OrchestratorFunctionArn}")) {
            return state.path("Parameters");
        }
        if (resource.equals(LAMBDA_WAIT_FOR_TOKEN)
                && state.path("Parameters").path("FunctionName").asText().equals("${OrchestratorFunctionArn}")) {
            return state.path("Parameters").path("Payload");
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }

    /** States reachable from {@code starts} without entering any state in {@code barrier} (barrier states are not included). */
    static Set<String> reachable(JsonNode states, List<String> starts, Set<String> barrier) {
        return reachable(states, starts, barrier, true);
    }

    /** As {@link #reachable(JsonNode, List, Set)}, optionally ignoring Catch transitions. */
    static Set<String> reachable(JsonNode states, List<String> starts, Set<String> barrier, boolean followCatch) {
        Set<String> seen = new LinkedHashSet<>();
        List<String> work = new ArrayList<>(starts);
        while (!work.isEmpty()) {
            String name = work.remove(work.size() - 1);
            if (barrier.contains(name) || !seen.add(name)) {
                continue;
            }
            work.addAll(followCatch ? successors(states.get(name)) : normalSuccessors(states.get(name)));
        }
        return seen;
    }

    /** Every Task state, top level and inside Map item processors. */
    static List<JsonNode> allTasks(JsonNode states) {
        List<JsonNode> out = new ArrayList<>();
        states.properties().forEach(e -> {
            if (e.getValue().get("Type").asText().equals("Task")) {
                out.add(e.getValue());
            }
            JsonNode processor = e.getValue().path("ItemProcessor");
            if (!processor.isMissingNode()) {
                out.addAll(allTasks(processor.get("States")));
            }
        });
        return out;
    }
}
