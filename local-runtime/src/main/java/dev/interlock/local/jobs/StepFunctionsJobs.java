package dev.interlock.local.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.local.aws.AwsJson;
import dev.interlock.model.trigger.JobStateRule;
import dev.interlock.statemachine.engine.EngineClock;
import dev.interlock.statemachine.engine.StepFunctionsException;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Executions of state machines other than Interlock's own, on the local runtime: the local Step Functions service
 * hands {@code StartExecution}, {@code DescribeExecution}, {@code StopExecution} and {@code ListExecutions} for any
 * other state machine ARN to these job fakes, and each execution's start and end are published as
 * {@code Step Functions Execution Status Change} events.
 */
public final class StepFunctionsJobs {

    private static final Pattern STATE_MACHINE_ARN =
            Pattern.compile("^arn:aws[a-z-]*:states:[a-z0-9-]+:\\d{12}:stateMachine:[A-Za-z0-9_-]{1,80}$");

    private record Execution(String stateMachineArn, String name, String input, FakeRun fake) {
        String arn() {
            return stateMachineArn.replace(":stateMachine:", ":execution:") + ":" + name;
        }
    }

    private final EngineClock clock;
    private final JobEvents events;
    private final Map<String, Execution> executions = new ConcurrentHashMap<>();
    private final FakeRunJournal journal;
    private final StartHolds holds;
    private Runnable resumption;

    StepFunctionsJobs(EngineClock clock, JobEvents events, FakeRunJournal journal, StartHolds holds) {
        this.clock = clock;
        this.events = events;
        this.journal = journal;
        this.holds = holds;
        this.resumption = restore();
    }

    /** Reads the journaled runs back (at construction: the API answers for them from its first call). */
    private Runnable restore() {
        return journal.restore(
                clock,
                (restored, fake) -> {
                    JsonNode r = restored.record();
                    Execution execution = new Execution(
                            r.path("stateMachineArn").asText(),
                            r.path("name").asText(),
                            r.path("input").asText(),
                            fake);
                    executions.put(restored.id(), execution);
                    return execution;
                },
                Execution::fake,
                this::ended);
    }

    /**
     * Lets the restored runs go on once the event bus and the executions are up: a running one ends at its due time, an
     * unpublished end is published now.
     */
    void resume() {
        Runnable goOn = resumption;
        resumption = () -> {};
        goOn.run();
    }

    private void ended(Execution execution) {
        publish(execution);
        journal.endPublished(execution.fake());
    }

    /** Starts an execution; the same name with the same input answers the same execution (as AWS does). */
    public Map<String, Object> start(String stateMachineArn, String name, String input) {
        if (!STATE_MACHINE_ARN.matcher(stateMachineArn).matches()) {
            throw new StepFunctionsException(
                    StepFunctionsException.Code.InvalidArn, "Invalid Arn: '" + stateMachineArn + "'");
        }
        holds.beforeAccepting(stateMachineArn);
        String executionName =
                name == null || name.isBlank() ? UUID.randomUUID().toString() : name;
        String body = input == null ? "{}" : input;
        JsonNode parsed;
        try {
            parsed = AwsJson.JSON.readTree(body);
        } catch (IOException e) {
            throw new StepFunctionsException(
                    StepFunctionsException.Code.InvalidExecutionInput,
                    "Invalid State Machine Execution Input: '" + e.getMessage() + "'");
        }
        FakeJob fake;
        try {
            fake = FakeJob.fromJson(parsed);
        } catch (IllegalArgumentException e) {
            throw new StepFunctionsException(
                    StepFunctionsException.Code.InvalidExecutionInput, "input: " + e.getMessage());
        }
        String arn = stateMachineArn.replace(":stateMachine:", ":execution:") + ":" + executionName;
        Execution candidate = new Execution(stateMachineArn, executionName, body, FakeRun.create(clock, arn, fake));
        Execution execution = executions.putIfAbsent(arn, candidate);
        if (execution != null) {
            if (!execution.input().equals(body)) {
                throw new StepFunctionsException(
                        StepFunctionsException.Code.ExecutionAlreadyExists, "Execution Already Exists: '" + arn + "'");
            }
            return started(execution);
        }
        journal.started(
                candidate.fake(),
                AwsJson.JSON
                        .createObjectNode()
                        .put("stateMachineArn", stateMachineArn)
                        .put("name", executionName)
                        .put("input", body));
        publish(candidate);
        candidate.fake().begin(clock, ended -> ended(candidate));
        holds.afterAccepting(stateMachineArn);
        return started(candidate);
    }

    private static Map<String, Object> started(Execution execution) {
        return Map.of(
                "executionArn", execution.arn(), "startDate", execution.fake().startedAt());
    }

    /** Whether {@code executionArn} is one of these executions (else the caller's own machines answer). */
    public boolean knows(String executionArn) {
        return executions.containsKey(executionArn);
    }

    public Map<String, Object> describe(String executionArn) {
        Execution execution = find(executionArn);
        Instant now = clock.now();
        FakeRun.Phase phase = execution.fake().phase(now);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("executionArn", execution.arn());
        out.put("stateMachineArn", execution.stateMachineArn());
        out.put("name", execution.name());
        out.put("status", status(phase));
        out.put("startDate", execution.fake().startedAt());
        if (phase != FakeRun.Phase.RUNNING) {
            out.put("stopDate", execution.fake().endsAt());
        }
        out.put("input", execution.input());
        out.put("inputDetails", Map.of("included", true));
        if (phase == FakeRun.Phase.SUCCEEDED) {
            out.put("output", execution.input());
            out.put("outputDetails", Map.of("included", true));
        } else if (phase == FakeRun.Phase.FAILED) {
            out.put("error", "FakeJobFailed");
            out.put("cause", execution.fake().failureMessage());
        }
        return out;
    }

    public Map<String, Object> stop(String executionArn, String error, String cause) {
        Execution execution = find(executionArn);
        if (execution.fake().stop(clock.now())) {
            journal.stopped(execution.fake(), execution.fake().endsAt());
            ended(execution);
        }
        return Map.of("stopDate", execution.fake().endsAt());
    }

    /** The executions of one of these state machines, newest first. */
    public List<Map<String, Object>> list(String stateMachineArn) {
        Instant now = clock.now();
        List<Map<String, Object>> out = new ArrayList<>();
        executions.values().stream()
                .filter(e -> e.stateMachineArn().equals(stateMachineArn))
                .sorted((a, b) -> b.fake().startedAt().compareTo(a.fake().startedAt()))
                .forEach(e -> {
                    Map<String, Object> item = new LinkedHashMap<>();
                    item.put("executionArn", e.arn());
                    item.put("stateMachineArn", e.stateMachineArn());
                    item.put("name", e.name());
                    item.put("status", status(e.fake().phase(now)));
                    item.put("startDate", e.fake().startedAt());
                    if (e.fake().ended(now)) {
                        item.put("stopDate", e.fake().endsAt());
                    }
                    out.add(item);
                });
        return out;
    }

    private Execution find(String executionArn) {
        Execution execution = executions.get(executionArn);
        if (execution == null) {
            throw new StepFunctionsException(
                    StepFunctionsException.Code.ExecutionDoesNotExist,
                    "Execution Does Not Exist: '" + executionArn + "'");
        }
        return execution;
    }

    /** Step Functions publishes every status change, with the execution's description as {@code detail}. */
    private void publish(Execution execution) {
        Map<String, Object> detail = new LinkedHashMap<>(describe(execution.arn()));
        detail.put("startDate", execution.fake().startedAt().toEpochMilli());
        detail.put(
                "stopDate",
                detail.containsKey("stopDate") ? execution.fake().endsAt().toEpochMilli() : null);
        detail.putIfAbsent("output", null);
        detail.putIfAbsent("outputDetails", Map.of("included", true));
        detail.putIfAbsent("error", null);
        detail.putIfAbsent("cause", null);
        Instant time = execution.fake().phase(clock.now()) == FakeRun.Phase.RUNNING
                ? execution.fake().startedAt()
                : execution.fake().endsAt();
        events.publish(JobStateRule.STEP_FUNCTIONS, List.of(execution.arn()), detail, time);
    }

    private static String status(FakeRun.Phase phase) {
        return switch (phase) {
            case RUNNING -> "RUNNING";
            case SUCCEEDED -> "SUCCEEDED";
            case FAILED -> "FAILED";
            case STOPPED -> "ABORTED";
        };
    }
}
