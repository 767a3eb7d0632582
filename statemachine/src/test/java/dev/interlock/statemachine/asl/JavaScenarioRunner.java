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

    private static final Duration REAL_TIME_LIMIT = Duration.ofSeconds(60);

    /** The outcome of one scenario: the run as read from the history, plus every publish the SNS resource was asked for. */
    record Outcome(
            Scenarios.Run run,
            List<HistoryEvent> history,
            List<JsonNode> published,
            ExecutionDescription description) {}

    private JavaScenarioRunner() {}

    static Outcome run(Scenarios.Scenario scenario) throws Exception {
        StateMachine[] machine = new StateMachine[1];
        ScenarioScript script = new ScenarioScript(
                scenario,
                problem -> machine[0].stopExecution(
                        machine[0].arn().replace(":stateMachine:", ":execution:") + ":" + scenario.executionName(),
                        ScenarioScript.SCRIPT_PROBLEM,
                        problem));
        TaskResource orchestratorEtc = invocation -> {
            ScenarioScript.Step step = script.topLevel(invocation.stateName());
            return invocation.resource().endsWith(TaskResources.WAIT_FOR_TASK_TOKEN)
                    ? callback(machine[0], invocation, step)
                    : perform(step);
        };
        TaskResource evaluator = invocation -> perform(script.evaluator(invocation.stateName(), invocation.payload()));
        List<JsonNode> published = new ArrayList<>();
        TaskResource sns = invocation -> {
            // Every attempt is recorded, also one the script makes fail: the resource was asked to publish it.
            synchronized (published) {
                published.add(invocation.payload());
            }
            return orchestratorEtc.invoke(invocation);
        };
        TaskResources resources = TaskResources.builder()
                .function(Scenarios.PLACEHOLDER_VALUES.get("OrchestratorFunctionArn"), orchestratorEtc)
                .function(Scenarios.PLACEHOLDER_VALUES.get("TriggerFunctionArn"), orchestratorEtc)
                .function(Scenarios.PLACEHOLDER_VALUES.get("RunCheckerFunctionArn"), orchestratorEtc)
                .function(Scenarios.PLACEHOLDER_VALUES.get("EvaluatorFunctionArn"), evaluator)
                .resource(TaskResources.SNS_PUBLISH, sns)
                .build();
        machine[0] = StateMachine.builder(
                        "interlock", StateMachineDefinition.parse(AslDefinition.load(), Scenarios.PLACEHOLDER_VALUES))
                .clock(new VirtualClock(START))
                .resources(resources)
                .region("us-east-1")
                .accountId("123456789012")
                .random(new Random(7))
                .build();
        Execution execution =
                machine[0].start(scenario.executionName(), scenario.input().toString());
        ExecutionDescription description = execution.await(REAL_TIME_LIMIT);
        List<HistoryEvent> history = machine[0].getExecutionHistory(execution.executionArn());
        Scenarios.Run run = fromHistory(scenario.name(), history, topLevelStates(machine[0]), script.problems());
        return new Outcome(run, history, List.copyOf(published), description);
    }

    private static Set<String> topLevelStates(StateMachine machine) {
        return machine.definition().graph().states().keySet();
    }

    /**
     * Reads a run from GetExecutionHistory events (ours, or another engine's in AWS's shape). An event belongs to a Map
     * iteration when it comes between its Map state's MapStateStarted and its end (events are in id order); everything
     * else is top level. (Not by walking up the previousEventId chain: in AWS-shaped histories
     * an iteration that starts while another runs chains to that one's events, so from after the Map the walk could end
     * in an open iteration, and a whole moto run read as RUNNING after its Map.) A Task call (LambdaFunctionScheduled for a
     * function ARN, TaskScheduled for a service integration) belongs to the state whose StateEntered event is the
     * nearest one up its chain, so every retried attempt counts against the state that entered once.
     */
    static Scenarios.Run fromHistory(
            String name, List<HistoryEvent> history, Set<String> topLevelStates, List<String> scriptProblems) {
        Map<Long, HistoryEvent> byId = new HashMap<>();
        history.forEach(e -> byId.put(e.id(), e));
        List<String> problems = new ArrayList<>(scriptProblems);
        List<String> states = new ArrayList<>();
        List<Scenarios.Invocation> invocations = new ArrayList<>();
        Map<String, JsonNode> requests = new LinkedHashMap<>();
        String status = "RUNNING";
        String error = null;
        int openMaps = 0; // Map states started and not yet ended: the events in between belong to their iterations
        for (HistoryEvent event : history) {
            switch (event.type()) {
                case MapStateStarted -> openMaps++;
                case MapStateSucceeded, MapStateFailed, MapStateAborted -> openMaps--;
                default -> {}
            }
            if (openMaps > 0) {
                continue;
            }
            switch (event.details()) {
                case EventDetails.StateEntered entered
                when event.type().name().endsWith("StateEntered") -> {
                    if (!topLevelStates.contains(entered.name())) {
                        problems.add("history: top-level " + event.type() + " of unknown state " + entered.name());
                    }
                    states.add(entered.name());
                }
                case EventDetails.LambdaFunctionScheduled scheduled ->
                    invocation(event, byId, json(scheduled.input()), invocations, requests, problems);
                case EventDetails.TaskScheduled scheduled ->
                    invocation(event, byId, json(scheduled.parameters()), invocations, requests, problems);
                case null, default -> {}
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
        return new Scenarios.Run(
                name, List.copyOf(states), List.copyOf(invocations), requests, status, error, List.copyOf(problems));
    }

    private static void invocation(
            HistoryEvent scheduled,
            Map<Long, HistoryEvent> byId,
            JsonNode request,
            List<Scenarios.Invocation> invocations,
            Map<String, JsonNode> requests,
            List<String> problems) {
        String state = enteringState(scheduled, byId);
        if (state == null) {
            problems.add(
                    "history: event " + scheduled.id() + " " + scheduled.type() + " follows no StateEntered event");
            return;
        }
        request = Scenarios.orchestratorRequest(request);
        JsonNode action = request.get("action");
        invocations.add(new Scenarios.Invocation(state, action != null && action.isTextual() ? action.asText() : null));
        requests.putIfAbsent(state, request);
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
     * A callback task: the scripted step is what its job reports through the token — a return is the SendTaskSuccess
     * output, a throw of {@code States.HeartbeatTimeout} or {@code States.Timeout} sends nothing (the engine times the
     * wait out in virtual time), any other throw is a SendTaskFailure.
     */
    private static JsonNode callback(StateMachine machine, TaskInvocation invocation, ScenarioScript.Step step) {
        String token = invocation.payload().path("payload").path("taskToken").asText();
        switch (step) {
            case ScenarioScript.Step.Return r ->
                machine.sendTaskSuccess(token, r.value().toString());
            case ScenarioScript.Step.Throw t -> {
                if (!t.error().equals("States.HeartbeatTimeout") && !t.error().equals("States.Timeout")) {
                    machine.sendTaskFailure(token, t.error(), t.cause());
                }
            }
        }
        return Asl.JSON.createObjectNode();
    }

    /** Turns a scripted step into what a task resource returns or throws. */
    private static JsonNode perform(ScenarioScript.Step step) throws TaskFailedException {
        return switch (step) {
            case ScenarioScript.Step.Return r -> r.value();
            case ScenarioScript.Step.Throw t -> throw new TaskFailedException(t.error(), t.cause());
        };
    }
}
