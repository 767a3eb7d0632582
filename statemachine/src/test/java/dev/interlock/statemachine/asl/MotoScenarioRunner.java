package dev.interlock.statemachine.asl;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.statemachine.AslDefinition;
import dev.interlock.statemachine.engine.EngineJson;
import dev.interlock.statemachine.engine.EventDetails;
import dev.interlock.statemachine.engine.HistoryEvent;
import dev.interlock.statemachine.engine.HistoryEventType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The scenarios' results on LocalStack's ASL interpreter as shipped in moto ({@link MotoAslEngine}), its Task states
 * answered by the same {@link ScenarioScript} as the Java engine's through {@link ScriptedAwsEndpoint}. The path is
 * read back from moto's GetExecutionHistory with the Java runner's own reader, so both engines are judged by their
 * histories in the same way. Runs once per test JVM (every test that needs it shares the result), one scenario at a
 * time: a Task call is matched to its state through the history, which is unambiguous only while one execution runs.
 *
 * <p>moto is reset after each scenario: it can run only one execution between resets ({@link MotoAslEngine#reset()}).
 */
final class MotoScenarioRunner {

    private static final Duration EXECUTION_LIMIT = Duration.ofSeconds(120);
    private static final String ROLE_ARN = "arn:aws:iam::123456789012:role/interlock-scenarios";
    /** moto's history events carry fields our records do not model (e.g. task credentials); they do not matter here. */
    private static final ObjectMapper HISTORY =
            EngineJson.mapper().copy().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private static Map<String, Scenarios.Run> runs;
    private static RuntimeException failure;

    private MotoScenarioRunner() {}

    /**
     * Every scenario's run by scenario name. Without python3 and moto the calling test is skipped locally and fails in
     * CI; a failed moto run is remembered, so the tests that need it fail at once instead of each running it again.
     */
    static synchronized Map<String, Scenarios.Run> runs() {
        if (failure != null) {
            throw failure;
        }
        if (runs == null) {
            try {
                runs = runOnce();
            } catch (org.opentest4j.TestAbortedException skipped) {
                throw skipped;
            } catch (Exception e) {
                failure = e instanceof RuntimeException re
                        ? re
                        : new IllegalStateException("running the scenarios on moto failed: " + e, e);
                throw failure;
            }
        }
        return runs;
    }

    private static Map<String, Scenarios.Run> runOnce() throws Exception {
        JsonNode definition = Asl.JSON.readTree(AslDefinition.substitute(Scenarios.PLACEHOLDER_VALUES));
        Set<String> topLevelStates = new java.util.LinkedHashSet<>();
        definition.get("States").fieldNames().forEachRemaining(topLevelStates::add);
        Map<String, List<String>> tasksByResource = new HashMap<>();
        collectTasks(definition.get("States"), tasksByResource);
        AtomicReference<Current> current = new AtomicReference<>();
        Map<String, Scenarios.Run> out = new LinkedHashMap<>();
        try (ScriptedAwsEndpoint endpoint = ScriptedAwsEndpoint.start(
                        (resource, request) -> current.get().call(resource, request));
                MotoAslEngine moto = MotoAslEngine.start(endpoint.port())) {
            for (Scenarios.Scenario scenario : Scenarios.all()) {
                String machine = "interlock";
                String machineArn = moto.stepFunctions(
                                "CreateStateMachine",
                                Asl.JSON
                                        .createObjectNode()
                                        .put("name", machine)
                                        .put("definition", definition.toString())
                                        .put("roleArn", ROLE_ARN))
                        .get("stateMachineArn")
                        .asText();
                String executionArn =
                        machineArn.replace(":stateMachine:", ":execution:") + ":" + scenario.executionName();
                Current run = new Current(moto, executionArn, topLevelStates, tasksByResource, scenario);
                current.set(run);
                moto.stepFunctions(
                        "StartExecution",
                        Asl.JSON
                                .createObjectNode()
                                .put("stateMachineArn", machineArn)
                                .put("name", scenario.executionName())
                                .put("input", scenario.input().toString()));
                JsonNode description = awaitEnd(moto, executionArn);
                List<HistoryEvent> history = new ArrayList<>();
                List<String> problems = new ArrayList<>(run.script.problems());
                List<JsonNode> rawHistory = history(moto, executionArn);
                for (JsonNode event : rawHistory) {
                    try {
                        history.add(HISTORY.treeToValue(event, HistoryEvent.class));
                    } catch (IllegalArgumentException | com.fasterxml.jackson.core.JsonProcessingException e) {
                        problems.add("history event the Java engine does not know: " + event);
                    }
                }
                Scenarios.Run fromHistory =
                        JavaScenarioRunner.fromHistory(scenario.name(), history, topLevelStates, problems);
                if (!fromHistory.status().equals(description.path("status").asText())) {
                    // Seen once under load and not reproduced: say what the history ended with, so that the
                    // next occurrence tells whether moto's history or our reading of it is behind.
                    problems.add("DescribeExecution says "
                            + description.path("status").asText() + ", the history " + fromHistory.status()
                            + " (" + rawHistory.size() + " events, the last ones "
                            + rawHistory.subList(Math.max(0, rawHistory.size() - 3), rawHistory.size()).stream()
                                    .map(e -> e.path("type").asText())
                                    .toList()
                            + ")");
                }
                out.put(
                        scenario.name(),
                        new Scenarios.Run(
                                fromHistory.name(),
                                fromHistory.states(),
                                fromHistory.invocations(),
                                fromHistory.requests(),
                                fromHistory.status(),
                                fromHistory.error(),
                                List.copyOf(problems)));
                moto.reset();
            }
        }
        return Map.copyOf(out);
    }

    /** Every Task state by its Resource (an SNS integration under {@link ScriptedAwsEndpoint#SNS_PUBLISH}), Map-internal ones too. */
    private static void collectTasks(JsonNode states, Map<String, List<String>> out) {
        states.properties().forEach(e -> {
            JsonNode state = e.getValue();
            if (state.path("Type").asText().equals("Task")) {
                out.computeIfAbsent(state.path("Resource").asText(), r -> new ArrayList<>())
                        .add(e.getKey());
            }
            JsonNode processor = state.has("ItemProcessor") ? state.get("ItemProcessor") : state.path("Iterator");
            if (processor.has("States")) {
                collectTasks(processor.get("States"), out);
            }
        });
    }

    private static JsonNode awaitEnd(MotoAslEngine moto, String executionArn) {
        Instant deadline = Instant.now().plus(EXECUTION_LIMIT);
        while (true) {
            JsonNode description = moto.stepFunctions(
                    "DescribeExecution", Asl.JSON.createObjectNode().put("executionArn", executionArn));
            if (!description.path("status").asText().equals("RUNNING")) {
                return description;
            }
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException(executionArn + " still RUNNING on moto after " + EXECUTION_LIMIT);
            }
            LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
        }
    }

    /** Every history event (moto 5.2.1 answers the whole history in one page; nextToken is followed anyway). */
    private static List<JsonNode> history(MotoAslEngine moto, String executionArn) {
        List<JsonNode> events = new ArrayList<>();
        String token = null;
        do {
            ObjectNode request = Asl.JSON
                    .createObjectNode()
                    .put("executionArn", executionArn)
                    .put("maxResults", 1000);
            if (token != null) {
                request.put("nextToken", token);
            }
            JsonNode page = moto.stepFunctions("GetExecutionHistory", request);
            page.path("events").forEach(events::add);
            token = page.hasNonNull("nextToken") ? page.get("nextToken").asText() : null;
        } while (token != null);
        return events;
    }

    /** The execution running now, and how its Task calls find their state and scripted answer. */
    private static final class Current {
        private final MotoAslEngine moto;
        private final String executionArn;
        private final Set<String> topLevelStates;
        private final Map<String, List<String>> tasksByResource;
        private final ScenarioScript script;

        Current(
                MotoAslEngine moto,
                String executionArn,
                Set<String> topLevelStates,
                Map<String, List<String>> tasksByResource,
                Scenarios.Scenario scenario) {
            this.moto = moto;
            this.executionArn = executionArn;
            this.topLevelStates = topLevelStates;
            this.tasksByResource = tasksByResource;
            this.script = new ScenarioScript(
                    scenario,
                    problem -> moto.stepFunctions(
                            "StopExecution",
                            Asl.JSON
                                    .createObjectNode()
                                    .put("executionArn", executionArn)
                                    .put("error", ScenarioScript.SCRIPT_PROBLEM)
                                    .put("cause", problem)));
        }

        /**
         * A Task call names its function (or SNS) and carries its request, not its state. When one Task state of the
         * definition uses that resource, or only Map-internal ones (answered by traitType), that says enough; otherwise
         * the state is the one whose newest scheduled event for that resource carries exactly this request (moto
         * records the event before it calls).
         */
        ScenarioScript.Step call(String resource, JsonNode request) {
            List<String> candidates = tasksByResource.getOrDefault(resource, List.of());
            if (candidates.size() == 1) {
                return answer(candidates.getFirst(), request);
            }
            if (!candidates.isEmpty() && candidates.stream().noneMatch(topLevelStates::contains)) {
                return script.evaluator(String.join("|", candidates), request);
            }
            List<HistoryEvent> history = new ArrayList<>();
            for (JsonNode event : MotoScenarioRunner.history(moto, executionArn)) {
                try {
                    history.add(HISTORY.treeToValue(event, HistoryEvent.class));
                } catch (IllegalArgumentException | com.fasterxml.jackson.core.JsonProcessingException unknown) {
                    // reported when the finished history is read
                }
            }
            Map<Long, HistoryEvent> byId = new HashMap<>();
            history.forEach(e -> byId.put(e.id(), e));
            for (HistoryEvent event : history.reversed()) {
                if (request.equals(scheduled(event, resource))) {
                    return answer(enteredState(event, byId), request);
                }
            }
            throw new IllegalStateException("moto called " + resource + " with " + request
                    + " but its history has no scheduled event with that request");
        }

        private ScenarioScript.Step answer(String state, JsonNode request) {
            return state != null && topLevelStates.contains(state)
                    ? script.topLevel(state)
                    : script.evaluator(state, request);
        }

        private static JsonNode scheduled(HistoryEvent event, String resource) {
            try {
                return switch (event.details()) {
                    case EventDetails.LambdaFunctionScheduled s
                    when s.resource().equals(resource) -> Asl.JSON.readTree(s.input());
                    case EventDetails.TaskScheduled s
                    when resource.equals(ScriptedAwsEndpoint.SNS_PUBLISH)
                            && event.type() == HistoryEventType.TaskScheduled
                            && "sns".equals(s.resourceType()) -> Asl.JSON.readTree(s.parameters());
                    case null, default -> null;
                };
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                return null;
            }
        }

        private static String enteredState(HistoryEvent event, Map<Long, HistoryEvent> byId) {
            for (HistoryEvent e = byId.get(event.previousEventId()); e != null; e = byId.get(e.previousEventId())) {
                if (e.details() instanceof EventDetails.StateEntered entered) {
                    return entered.name();
                }
            }
            return null;
        }
    }
}
