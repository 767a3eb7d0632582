package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.interlock.statemachine.model.TaskState;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The waiting of a Task state's attempt on the engine clock: for its call to the resource, and for the callback a
 * {@code .waitForTaskToken} task then waits for. Either wait ends in a {@link TaskOutcome}.
 */
final class TaskCall {

    private final Execution execution;
    private final EngineClock clock;

    TaskCall(Execution execution, EngineClock clock) {
        this.execution = execution;
        this.clock = clock;
    }

    /**
     * Calls the resource on its own participant thread so that the state can stop waiting for it when
     * TimeoutSeconds passes on the engine clock, or when the execution is stopped.
     */
    TaskOutcome invoke(
            TaskState t, TaskResources.ResolvedTask task, JsonNode parameters, int retryCount, Long timeout, Frame f) {
        Cancellation taskToken = f.token.child();
        EngineClock.Gate done = clock.newGate();
        AtomicReference<TaskOutcome> outcome = new AtomicReference<>();
        TaskInvocation.TaskClock taskClock = new TaskInvocation.TaskClock() {
            @Override
            public Instant now() {
                return clock.now();
            }

            @Override
            public void sleep(Duration duration) throws InterruptedException {
                try {
                    taskToken.sleepUntil(clock, clock.now().plus(duration));
                } catch (Cancellation.Cancelled c) {
                    throw new InterruptedException("task cancelled: " + c.reason());
                }
            }
        };
        TaskInvocation invocation = new TaskInvocation(
                t.resource(),
                task.target(),
                task.payload(parameters),
                parameters,
                execution.executionArn(),
                t.name(),
                retryCount,
                taskClock);
        Instant deadline = timeout == null ? null : clock.now().plusSeconds(timeout);
        clock.start(execution.name() + "/" + t.name(), () -> {
            try {
                JsonNode output = task.invoker().invoke(invocation);
                outcome.set(new TaskOutcome.Succeeded(output == null ? NullNode.getInstance() : output));
            } catch (TaskFailedException e) {
                outcome.set(new TaskOutcome.Failed(
                        e.error() == null ? StatesErrors.TASK_FAILED : e.error(), e.causeText()));
            } catch (InterruptedException e) {
                outcome.set(new TaskOutcome.Failed(StatesErrors.TASK_FAILED, "The task was interrupted"));
            } catch (RuntimeException e) {
                // Like a Lambda function's unhandled exception: the error is the exception type.
                outcome.set(new TaskOutcome.Failed(e.getClass().getName(), String.valueOf(e.getMessage())));
            } finally {
                done.open();
            }
        });
        try {
            boolean finished = f.token.await(done, deadline);
            if (!finished) {
                taskToken.cancel(Cancellation.Reason.TASK_TIMED_OUT);
                return new TaskOutcome.TimedOut(
                        StatesErrors.TIMEOUT, "The task did not complete within " + timeout + " seconds");
            }
            return outcome.get();
        } finally {
            taskToken.detach();
        }
    }

    /**
     * Waits for SendTaskSuccess/SendTaskFailure on the task's token. TimeoutSeconds counts from the task's start,
     * HeartbeatSeconds from the start or the last SendTaskHeartbeat; whichever passes first ends the wait.
     */
    TaskOutcome awaitCallback(TaskTokens.Waiting waiting, Long timeout, Long heartbeat, Frame f) {
        Instant deadline = timeout == null ? null : waiting.startedAt().plusSeconds(timeout);
        while (true) {
            Instant heartbeatDeadline =
                    heartbeat == null ? null : waiting.lastHeartbeat().plusSeconds(heartbeat);
            Instant until = deadline == null
                    ? heartbeatDeadline
                    : heartbeatDeadline == null || deadline.isBefore(heartbeatDeadline) ? deadline : heartbeatDeadline;
            if (f.token.await(waiting.gate(), until)) {
                return switch (waiting.callback()) {
                    case TaskTokens.Callback.Success s -> new TaskOutcome.Succeeded(s.output());
                    case TaskTokens.Callback.Failure failure ->
                        new TaskOutcome.Failed(
                                failure.error() == null ? StatesErrors.TASK_FAILED : failure.error(), failure.cause());
                };
            }
            Instant now = clock.now();
            if (deadline != null && !now.isBefore(deadline)) {
                return new TaskOutcome.TimedOut(
                        StatesErrors.TIMEOUT, "The task did not complete within " + timeout + " seconds");
            }
            if (heartbeat != null && !now.isBefore(waiting.lastHeartbeat().plusSeconds(heartbeat))) {
                return new TaskOutcome.TimedOut(
                        StatesErrors.HEARTBEAT_TIMEOUT, "No heartbeat or result within " + heartbeat + " seconds");
            }
        }
    }
}
