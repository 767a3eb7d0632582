package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.statemachine.model.TaskState;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A Task state: resolves its resource from its Parameters, records the call's events, and waits for the call (and,
 * for a {@code .waitForTaskToken} task, for the callback) under its TimeoutSeconds and HeartbeatSeconds. Its attempts
 * run under its Retry and Catch rules.
 */
final class TaskStep implements StateStep<TaskState> {

    /** What Step Functions reports when the Lambda service fails an invocation: every Lambda Task of this ASL retries it. */
    private static final String LOST_LAMBDA_INVOCATION = "Lambda.ServiceException";

    private final StepSupport support;
    private final DataFlow data;
    private final RetryAndCatch recovery;
    private final TaskCall call;
    private final TaskResources resources;
    private final TaskTokens tokens;
    private final String region;

    TaskStep(StepSupport support, RetryAndCatch recovery, TaskResources resources, TaskTokens tokens, String region) {
        this.support = support;
        this.data = support.data;
        this.recovery = recovery;
        this.call = new TaskCall(support.execution, support.clock);
        this.resources = resources;
        this.tokens = tokens;
        this.region = region;
    }

    /** A callback Task's wait a resumed execution continues under its journaled token, and a callback it already got. */
    record ResumedWait(JournalEntry.CallbackWait journaled, JournalEntry.CallbackArrived arrived) {}

    @Override
    public Exit run(TaskState t, Entry e) {
        JsonNode input = e.input();
        Instant entered = e.entered();
        Frame f = e.frame();
        // Only the first attempt of a resumed state continues its journaled wait; a retry starts afresh.
        AtomicReference<ResumedWait> resumedWait =
                new AtomicReference<>(e.start().resumedWait());
        return recovery.run(
                t,
                t.transition(),
                input,
                f,
                e.start(),
                retryCount -> {
                    ResumedWait resumed = resumedWait.getAndSet(null);
                    return resumed != null
                            ? resumeCallback(t, input, entered, retryCount, resumed, f)
                            : task(t, input, entered, retryCount, f);
                },
                (result, retryCount) ->
                        taskOutput(t, input, support.context(t.name(), entered, retryCount, f), result));
    }

    /**
     * Records the failure of a Task attempt that was in flight when the engine stopped, and returns it: for a Lambda
     * function the error its service reports for an invocation it lost, otherwise States.TaskFailed.
     */
    StatesError lostAttempt(TaskState t, JsonNode input, Instant entered, int retryCount, Frame f) {
        ObjectNode context = support.context(t.name(), entered, retryCount, f);
        if (t.resource() != null && t.resource().endsWith(TaskResources.WAIT_FOR_TASK_TOKEN)) {
            // The lost attempt's token closed with the process; its parameters still resolve (to name the resource).
            context.putObject("Task").put("Token", "");
        }
        JsonNode effective = data.inputPath(input, t.inputPath(), context);
        JsonNode parameters = t.parameters() != null ? data.template(t.parameters(), effective, context) : effective;
        TaskResources.ResolvedTask task = resources
                .resolve(t.resource(), parameters)
                .orElseThrow(() ->
                        StatesError.runtime("No task resource is registered for Resource '" + t.resource() + "'"));
        TaskEvents events = TaskEvents.of(task, region);
        String error =
                task.directLambda() || task.lambdaIntegration() ? LOST_LAMBDA_INVOCATION : StatesErrors.TASK_FAILED;
        String cause = "The engine stopped while this attempt was in flight; the attempt is lost and handled as failed,"
                + " so the state's Retry rules decide whether it is made again";
        support.emit(f, events.failed(), events.errorDetails(error, cause));
        return StatesError.of(error, cause);
    }

    private JsonNode task(TaskState t, JsonNode input, Instant entered, int retryCount, Frame f) {
        ObjectNode context = support.context(t.name(), entered, retryCount, f);
        // A callback task gets a token per attempt (a retry waits under a new one), valid only while it waits.
        TaskTokens.Waiting waiting = t.resource() != null && t.resource().endsWith(TaskResources.WAIT_FOR_TASK_TOKEN)
                ? tokens.open(support.clock)
                : null;
        if (waiting != null) {
            context.putObject("Task").put("Token", waiting.token());
            journalCallbacks(waiting, f);
        }
        try {
            return task(t, input, context, retryCount, waiting, f);
        } finally {
            if (waiting != null) {
                tokens.close(waiting.token());
            }
        }
    }

    /** A Task state's call as its parameters resolve: the resource, its events, its TimeoutSeconds and HeartbeatSeconds. */
    private record PreparedTask(
            TaskResources.ResolvedTask task, JsonNode parameters, Long timeout, Long heartbeat, TaskEvents events) {}

    private PreparedTask prepare(TaskState t, JsonNode input, ObjectNode context) {
        JsonNode effective = data.inputPath(input, t.inputPath(), context);
        JsonNode parameters = t.parameters() != null ? data.template(t.parameters(), effective, context) : effective;
        TaskResources.ResolvedTask task = resources
                .resolve(t.resource(), parameters)
                .orElseThrow(
                        () -> StatesError.runtime("No task resource is registered for Resource '" + t.resource() + "'"
                                + (TaskResources.LAMBDA_INVOKE.equals(t.resource())
                                        ? " with FunctionName " + parameters.path("FunctionName")
                                        : "")));
        Long timeout = t.timeoutSeconds() != null
                ? Long.valueOf(t.timeoutSeconds())
                : t.timeoutSecondsPath() != null
                        ? positiveSeconds(
                                data.require(t.timeoutSecondsPath(), effective, context, "TimeoutSecondsPath"))
                        : null;
        Long heartbeat = t.heartbeatSeconds() != null
                ? Long.valueOf(t.heartbeatSeconds())
                : t.heartbeatSecondsPath() != null
                        ? positiveSeconds(
                                data.require(t.heartbeatSecondsPath(), effective, context, "HeartbeatSecondsPath"))
                        : null;
        TaskEvents events = TaskEvents.of(task, region);
        return new PreparedTask(task, parameters, timeout, heartbeat, events);
    }

    private JsonNode task(
            TaskState t, JsonNode input, ObjectNode context, int retryCount, TaskTokens.Waiting waiting, Frame f) {
        PreparedTask p = prepare(t, input, context);
        support.emit(
                f,
                p.events().scheduled(),
                p.events()
                        .scheduledDetails(
                                p.parameters(),
                                p.timeout(),
                                p.heartbeat() == null ? null : p.heartbeat().intValue()));
        support.emit(f, p.events().started(), p.events().startedDetails());

        TaskOutcome outcome = call.invoke(t, p.task(), p.parameters(), retryCount, p.timeout(), f);
        if (waiting != null && outcome instanceof TaskOutcome.Succeeded submitted) {
            if (f.topLevel) {
                // The token and the wait's start are journaled before TaskSubmitted, so a restart waits on.
                support.execution.checkpoint(new JournalEntry.CallbackWait(waiting.token(), waiting.startedAt()));
            }
            support.emit(
                    f,
                    HistoryEventType.TaskSubmitted,
                    p.events().succeededDetails(p.task().result(submitted.output())));
            outcome = call.awaitCallback(waiting, p.timeout(), p.heartbeat(), f);
        }
        return finish(t, input, context, p, waiting != null, outcome, f);
    }

    /**
     * Continues a callback Task's wait that a stopped engine left open: under the same token, its TimeoutSeconds still
     * counted from when the wait was opened; the call that handed the token over is not made again.
     */
    private JsonNode resumeCallback(
            TaskState t, JsonNode input, Instant entered, int retryCount, ResumedWait resumed, Frame f) {
        ObjectNode context = support.context(t.name(), entered, retryCount, f);
        context.putObject("Task").put("Token", resumed.journaled().token());
        PreparedTask p = prepare(t, input, context);
        TaskTokens.Waiting waiting = tokens.reopen(
                resumed.journaled().token(),
                resumed.journaled().openedAt(),
                support.clock,
                TaskTokens.fromJournal(resumed.arrived()));
        journalCallbacks(waiting, f);
        try {
            return finish(t, input, context, p, true, call.awaitCallback(waiting, p.timeout(), p.heartbeat(), f), f);
        } finally {
            tokens.close(waiting.token());
        }
    }

    /** A top-level wait journals the callback that ends it before the callback is accepted. */
    private void journalCallbacks(TaskTokens.Waiting waiting, Frame f) {
        if (f.topLevel) {
            waiting.journalTo(
                    callback -> support.execution.checkpoint(TaskTokens.toJournal(waiting.token(), callback)));
        }
    }

    private JsonNode finish(
            TaskState t,
            JsonNode input,
            ObjectNode context,
            PreparedTask p,
            boolean byCallback,
            TaskOutcome outcome,
            Frame f) {
        TaskEvents events = p.events();
        return switch (outcome) {
            case TaskOutcome.Succeeded s -> {
                JsonNode result = byCallback ? s.output() : p.task().result(s.output());
                support.emit(f, events.succeeded(), events.succeededDetails(result));
                yield taskOutput(t, input, context, result);
            }
            case TaskOutcome.Failed failed -> {
                support.emit(f, events.failed(), events.errorDetails(failed.error(), failed.cause()));
                throw StatesError.of(failed.error(), failed.cause());
            }
            case TaskOutcome.TimedOut timedOut -> {
                support.emit(f, events.timedOut(), events.errorDetails(timedOut.error(), timedOut.cause()));
                throw StatesError.of(timedOut.error(), timedOut.cause());
            }
        };
    }

    /** A Task state's output from its (already wrapped) result: ResultSelector, ResultPath, OutputPath. */
    private JsonNode taskOutput(TaskState t, JsonNode input, JsonNode context, JsonNode result) {
        JsonNode selected = t.resultSelector() != null ? data.template(t.resultSelector(), result, context) : result;
        return data.outputPath(data.resultPath(input, selected, t.resultPath()), t.outputPath(), context);
    }

    private static long positiveSeconds(JsonNode value) {
        if (!value.isIntegralNumber() || value.asLong() <= 0) {
            throw StatesError.runtime("TimeoutSecondsPath must select a positive integer, found " + value);
        }
        return value.asLong();
    }
}
