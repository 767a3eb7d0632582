package dev.interlock.statemachine.asl;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.statemachine.AslDefinition;
import dev.interlock.statemachine.engine.EventDetails;
import dev.interlock.statemachine.engine.Execution;
import dev.interlock.statemachine.engine.ExecutionDescription;
import dev.interlock.statemachine.engine.HistoryEvent;
import dev.interlock.statemachine.engine.HistoryEventType;
import dev.interlock.statemachine.engine.StateMachine;
import dev.interlock.statemachine.engine.TaskFailedException;
import dev.interlock.statemachine.engine.TaskInvocation;
import dev.interlock.statemachine.engine.TaskResource;
import dev.interlock.statemachine.engine.TaskResources;
import dev.interlock.statemachine.engine.VirtualClock;
import dev.interlock.statemachine.model.StateMachineDefinition;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Runs a scenario on our Java ASL engine: the real ASL file with the placeholders substituted, a {@link VirtualClock}
 * (Waits and retry intervals pass in virtual time), and task resources answering from the scenario's script. The
 * reported states, invocations, requests and status are read back from the execution's GetExecutionHistory events,
 * so a scenario also proves that the history tells what happened.
 */
final class JavaScenarioRunner {

    /** The execution start; also the fixed {@code $$.State.EnteredTime} the node runner passes, so they meet at t0. */
    static final Instant START = Instant.parse("2026-01-15T06:00:00Z");
    private static final int MAX_INVOCATIONS = 500;
    private static final Duration REAL_TIME_LIMIT = Duration.ofSeconds(60);

    /** The outcome of one scenario: the run as read from the history, plus every publish the SNS resource was asked for. */
    record Outcome(Scenarios.Run run, List<HistoryEvent> history, List<JsonNode> published, ExecutionDescription description) {
    }

    private JavaScenarioRunner() {
    }

    static Outcome run(Scenarios.Scenario scenario) throws Exception {
        Script script = new Script(scenario);
        TaskResource orchestratorEtc = script::topLevel;
        TaskResource evaluator = script::evaluator;
        List<JsonNode> published = new ArrayList<>();
        TaskResource sns = invocation -> {
            // Every attempt is recorded, also one the script makes fail: the resource was asked to publish it.
            synchronized (published) {
                published.add(invocation.payload());
            }
            return script.topLevel(invocation);
        };
        TaskResources resources = TaskResources.builder()
                .function(Scenarios.PLACEHOLDER_VALUES.get("OrchestratorFunctionArn"), orchestratorEtc)
                .function(Scenarios.PLACEHOLDER_VALUES.get("TriggerFunctionArn"), orchestratorEtc)
                .function(Scenarios.PLACEHOLDER_VALUES.get("RunCheckerFunctionArn"), orchestratorEtc)
                .function(Scenarios.PLACEHOLDER_VALUES.get("EvaluatorFunctionArn"), evaluator)
                .resource(TaskResources.SNS_PUBLISH, sns)
                .build();
        StateMachine machine = StateMachine.builder("interlock",
                        StateMachineDefinition.parse(AslDefinition.load(), Scenarios.PLACEHOLDER_VALUES))
                .clock(new VirtualClock(START))
                .resources(resources)
                .region("us-east-1")
                .accountId("123456789012")
                .random(new Random(7))
                .build();
        script.machine = machine;
        Execution execution = machine.start(scenario.executionName(), scenario.input().toString());
        script.executionArn = execution.executionArn();
        ExecutionDescription description = execution.await(REAL_TIME_LIMIT);
        List<HistoryEvent> history = machine.getExecutionHistory(execution.executionArn());
        Scenarios.Run run = fromHistory(scenario.name(), history, topLevelStates(machine), script.problems());
        return new Outcome(run, history, List.copyOf(published), description);
    }

    private static Set<String> topLevelStates(StateMachine machine) {
        return machine.definition().graph().states().keySet();
    }

    /**
     * Reads a run from GetExecutionHistory events. An event belongs to a Map iteration when its previousEventId chain
     * passes a MapIterationStarted event; everything else is top level. A Task call (LambdaFunctionScheduled for a
     * function ARN, TaskScheduled for a service integration) belongs to the state whose StateEntered event is the
     * nearest one up its chain, so every retried attempt counts against the state that entered once.
     */
    static Scenarios.Run fromHistory(String name, List<HistoryEvent> history, Set<String> topLevelStates,
            List<String> scriptProblems) {
        Map<Long, HistoryEvent> byId = new HashMap<>();
        history.forEach(e -> byId.put(e.id(), e));
        List<String> problems = new ArrayList<>(scriptProblems);
        List<String> states = new ArrayList<>();
        List<Scenarios.Invocation> invocations = new ArrayList<>();
        Map<String, JsonNode> requests = new LinkedHashMap<>();
        String status = "RUNNING";
        String error = null;
        for (HistoryEvent event : history) {
            if (insideMapIteration(event, byId)) {
                continue;
            }
            switch (event.details()) {
                case EventDetails.StateEntered entered when event.type().name().endsWith("StateEntered") -> {
                    if (!topLevelStates.contains(entered.name())) {
                        problems.add("history: top-level " + event.type() + " of unknown state " + entered.name());
                    }
                    states.add(entered.name());
                }
                case EventDetails.LambdaFunctionScheduled scheduled -> invocation(event, byId, json(scheduled.input()),
                        invocations, requests, problems);
                case EventDetails.TaskScheduled scheduled -> invocation(event, byId, json(scheduled.parameters()),
                        invocations, requests, problems);
                case null, default -> {
                }
            }
            if (event.type() == HistoryEventType.ExecutionSucceeded) {
                status = "SUCCEEDED";
            } else if (event.type() == HistoryEventType.ExecutionFailed) {
                status = "FAILED";
                error = ((EventDetails.Failure) event.details()).error();
            } else if (event.type() == HistoryEventType.ExecutionTimedOut) {
                status = "TIMED_OUT";
            } else if (event.type() == HistoryEventType.ExecutionAborted) {
                status = "ABORTED";
            }
        }
        return new Scenarios.Run(name, List.copyOf(states), List.copyOf(invocations), requests, status, error,
                List.copyOf(problems));
    }

    private static void invocation(HistoryEvent scheduled, Map<Long, HistoryEvent> byId, JsonNode request,
            List<Scenarios.Invocation> invocations, Map<String, JsonNode> requests, List<String> problems) {
        String state = enteringState(scheduled, byId);
        if (state == null) {
            problems.add("history: event " + scheduled.id() + " " + scheduled.type() + " follows no StateEntered event");
            return;
        }
        request = Scenarios.orchestratorRequest(request);
        JsonNode action = request.get("action");
        invocations.add(new Scenarios.Invocation(state, action != null && action.isTextual() ? action.asText() : null));
        requests.putIfAbsent(state, request);
    }

    private static boolean insideMapIteration(HistoryEvent event, Map<Long, HistoryEvent> byId) {
        for (HistoryEvent e = byId.get(event.previousEventId()); e != null; e = byId.get(e.previousEventId())) {
            if (e.type() == HistoryEventType.MapIterationStarted) {
                return true;
            }
        }
        return false;
    }

    private static String enteringState(HistoryEvent event, Map<Long, HistoryEvent> byId) {
        for (HistoryEvent e = byId.get(event.previousEventId()); e != null; e = byId.get(e.previousEventId())) {
            if (e.details() instanceof EventDetails.StateEntered entered) {
                return entered.name();
            }
        }
        return null;
    }

    private static JsonNode json(String text) {
        try {
            return Asl.JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The scenario's scripted answers. Top-level Tasks answer by state name, the Map-internal evaluator Tasks by the
     * item's traitType (one sequence shared by both Maps); each call takes the next step and the last step repeats.
     */
    private static final class Script {
        private final Scenarios.Scenario scenario;
        private final Map<String, Integer> used = new HashMap<>();
        private final List<String> problems = new ArrayList<>();
        private int invocations;
        private volatile StateMachine machine;
        private volatile String executionArn;

        Script(Scenarios.Scenario scenario) {
            this.scenario = scenario;
        }

        synchronized List<String> problems() {
            return List.copyOf(problems);
        }

        JsonNode topLevel(TaskInvocation invocation) throws TaskFailedException {
            JsonNode steps = scenario.results(invocation.stateName());
            synchronized (this) {
                if (++invocations > MAX_INVOCATIONS) {
                    return abort("more than " + MAX_INVOCATIONS + " invocations: the script never leaves a loop");
                }
                if (steps == null) {
                    return abort(invocation.stateName() + " was invoked but the scenario scripts no result for it");
                }
            }
            JsonNode step = next(steps, invocation.stateName());
            if (invocation.resource().endsWith(TaskResources.WAIT_FOR_TASK_TOKEN)) {
                return callback(invocation, step);
            }
            return perform(step, invocation.stateName());
        }

        /**
         * A callback task: the scripted step is what its job reports through the token — {@code return} is the
         * SendTaskSuccess output, a {@code throw} of {@code States.HeartbeatTimeout} or {@code States.Timeout} sends
         * nothing (the engine times the wait out in virtual time), any other {@code throw} is a SendTaskFailure.
         */
        private JsonNode callback(TaskInvocation invocation, JsonNode step) {
            String token = invocation.payload().path("payload").path("taskToken").asText();
            if (step != null && step.has("return")) {
                machine.sendTaskSuccess(token, step.get("return").toString());
            } else if (step != null && step.has("throw")) {
                String error = step.get("throw").get("error").asText();
                if (!error.equals("States.HeartbeatTimeout") && !error.equals("States.Timeout")) {
                    machine.sendTaskFailure(token, error, step.get("throw").path("cause").asText(""));
                }
            }
            return Asl.JSON.createObjectNode();
        }

        JsonNode evaluator(TaskInvocation invocation) throws TaskFailedException {
            String traitType = invocation.payload().path("traitType").asText(null);
            JsonNode steps = scenario.evaluator(traitType);
            if (steps == null) {
                synchronized (this) {
                    return abort(invocation.stateName() + " evaluated trait " + traitType
                            + " but the scenario scripts no evaluator result for it");
                }
            }
            return perform(next(steps, "evaluator:" + traitType), invocation.stateName() + "[" + traitType + "]");
        }

        private synchronized JsonNode next(JsonNode steps, String key) {
            int n = used.merge(key, 1, Integer::sum) - 1;
            if (!steps.isArray()) {
                return steps;
            }
            return steps.get(Math.min(n, steps.size() - 1));
        }

        /** Records a scripting problem and stops the execution, as the node runner aborts its run. */
        private JsonNode abort(String problem) throws TaskFailedException {
            problems.add(problem);
            machine.stopExecution(executionArn, "Scenario.ScriptProblem", problem);
            throw new TaskFailedException("Scenario.ScriptProblem", problem);
        }

        private static JsonNode perform(JsonNode step, String where) throws TaskFailedException {
            if (step != null && step.has("throw")) {
                JsonNode thrown = step.get("throw");
                throw new TaskFailedException(thrown.get("error").asText(), thrown.path("cause").asText(""));
            }
            if (step != null && step.has("return")) {
                return step.get("return").deepCopy();
            }
            throw new IllegalArgumentException(where + ": a scripted step is {\"return\": ...} or {\"throw\": {\"error\", \"cause\"}}");
        }
    }
}
