package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.statemachine.model.StateMachineDefinition;
import java.time.Instant;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the executions of one {@link StateMachine} on its engine clock: each on its own participant, under the
 * definition's TimeoutSeconds, and closes it with the event its end calls for (succeeded, failed, aborted, timed out).
 */
final class ExecutionLauncher {

    /** The engine's log lines keep the machine's category. */
    private static final Logger LOG = LoggerFactory.getLogger(StateMachine.class);

    private final String name;
    private final String arn;
    private final String roleArn;
    private final String region;
    private final StateMachineDefinition definition;
    private final TaskResources resources;
    private final EngineClock clock;
    private final RandomGenerator random;
    private final DataFlow data;
    private final TaskTokens tokens;

    ExecutionLauncher(
            String name,
            String arn,
            String roleArn,
            String region,
            StateMachineDefinition definition,
            TaskResources resources,
            EngineClock clock,
            RandomGenerator random,
            DataFlow data,
            TaskTokens tokens) {
        this.name = name;
        this.arn = arn;
        this.roleArn = roleArn;
        this.region = region;
        this.definition = definition;
        this.resources = resources;
        this.clock = clock;
        this.random = random;
        this.data = data;
        this.tokens = tokens;
    }

    /** Starts a new execution: its ExecutionStarted event, then its states from the definition's StartAt. */
    void launch(Execution execution) {
        long startedId = execution.emit(
                HistoryEventType.ExecutionStarted,
                new EventDetails.ExecutionStarted(
                        execution.input().toString(), EventDetails.PayloadDetails.NOT_TRUNCATED, roleArn),
                0,
                true,
                null,
                false);
        Interpreter interpreter = interpreter(execution);
        Frame root = Frame.root(execution.cancellation(), startedId);
        launch(execution, () -> interpreter.run(definition.graph(), execution.input(), root));
    }

    /** Continues a journaled execution from where it stood. */
    void launch(Execution execution, ResumePoint point) {
        Interpreter interpreter = interpreter(execution);
        Frame root = Frame.root(execution.cancellation(), point.lastEventId());
        launch(execution, () -> interpreter.resume(definition.graph(), point, root));
    }

    private Interpreter interpreter(Execution execution) {
        return new Interpreter(execution, contextBase(execution), clock, resources, data, region, random, tokens);
    }

    private void launch(Execution execution, java.util.function.Supplier<JsonNode> body) {
        EngineClock.Gate finished = clock.newGate();
        // The timeout watcher is started from the execution's own thread: under a VirtualClock a participant
        // holds the turn while starting it, so no virtual time can pass between the two.
        clock.start("execution-" + execution.name(), () -> {
            if (definition.timeoutSeconds() != null) {
                Instant deadline = execution.startDate().plusSeconds(definition.timeoutSeconds());
                clock.start("timeout-" + execution.name(), () -> {
                    try {
                        if (!finished.await(deadline)) {
                            timeOut(execution);
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
            }
            run(execution, body, finished);
        });
    }

    private void run(Execution execution, java.util.function.Supplier<JsonNode> body, EngineClock.Gate finished) {
        try {
            JsonNode output = body.get();
            execution.close(
                    ExecutionStatus.SUCCEEDED,
                    output.toString(),
                    null,
                    null,
                    HistoryEventType.ExecutionSucceeded,
                    new EventDetails.ExecutionSucceeded(output.toString(), EventDetails.PayloadDetails.NOT_TRUNCATED),
                    execution.lastEventId());
        } catch (StatesError e) {
            execution.close(
                    ExecutionStatus.FAILED,
                    null,
                    e.error(),
                    e.cause(),
                    HistoryEventType.ExecutionFailed,
                    new EventDetails.Failure(e.error(), e.cause()),
                    execution.lastEventId());
        } catch (Cancellation.Cancelled c) {
            // Stop and timeout close the execution themselves before cancelling, and a halted execution (the engine
            // stopping) is not closed at all: this only covers interrupts.
            execution.close(
                    ExecutionStatus.ABORTED,
                    null,
                    null,
                    null,
                    HistoryEventType.ExecutionAborted,
                    new EventDetails.Failure(null, null),
                    execution.lastEventId());
        } catch (RuntimeException e) {
            if (execution.halted()) {
                return;
            }
            LOG.error(
                    "{\"message\":\"engine error\",\"executionName\":\"{}\",\"stateMachine\":\"{}\"}",
                    execution.name(),
                    name,
                    e);
            String cause = "Internal engine error: " + e;
            execution.close(
                    ExecutionStatus.FAILED,
                    null,
                    StatesErrors.RUNTIME,
                    cause,
                    HistoryEventType.ExecutionFailed,
                    new EventDetails.Failure(StatesErrors.RUNTIME, cause),
                    execution.lastEventId());
        } finally {
            finished.open();
        }
    }

    private void timeOut(Execution execution) {
        String cause = "The execution did not complete within " + definition.timeoutSeconds() + " seconds";
        if (execution.close(
                ExecutionStatus.TIMED_OUT,
                null,
                StatesErrors.TIMEOUT,
                cause,
                HistoryEventType.ExecutionTimedOut,
                new EventDetails.Failure(StatesErrors.TIMEOUT, cause),
                execution.lastEventId())) {
            execution.cancellation().cancel(Cancellation.Reason.TIMED_OUT);
        }
    }

    private ObjectNode contextBase(Execution execution) {
        ObjectNode context = JsonNodeFactory.instance.objectNode();
        ObjectNode exec = context.putObject("Execution");
        exec.put("Id", execution.executionArn());
        exec.set("Input", execution.input());
        exec.put("Name", execution.name());
        exec.put("RoleArn", roleArn);
        exec.put("StartTime", StepSupport.contextTime(execution.startDate()));
        exec.put("RedriveCount", 0);
        ObjectNode machine = context.putObject("StateMachine");
        machine.put("Id", arn);
        machine.put("Name", name);
        return context;
    }
}
