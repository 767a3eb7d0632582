package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.statemachine.model.Catcher;
import dev.interlock.statemachine.model.ChoiceBranch;
import dev.interlock.statemachine.model.ChoiceState;
import dev.interlock.statemachine.model.FailState;
import dev.interlock.statemachine.model.MapState;
import dev.interlock.statemachine.model.ParallelState;
import dev.interlock.statemachine.model.PassState;
import dev.interlock.statemachine.model.Retrier;
import dev.interlock.statemachine.model.State;
import dev.interlock.statemachine.model.StateGraph;
import dev.interlock.statemachine.model.SucceedState;
import dev.interlock.statemachine.model.TaskState;
import dev.interlock.statemachine.model.Transition;
import dev.interlock.statemachine.model.WaitFor;
import dev.interlock.statemachine.model.WaitState;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.random.RandomGenerator;

/** Runs the states of one execution: data flow, retries and catches, waits, tasks, Map and Parallel fan-out. */
final class Interpreter {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final DateTimeFormatter CONTEXT_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
    private static final EventDetails.PayloadDetails NOT_TRUNCATED = EventDetails.PayloadDetails.NOT_TRUNCATED;
    /** What Step Functions reports when the Lambda service fails an invocation: every Lambda Task of this ASL retries it. */
    private static final String LOST_LAMBDA_INVOCATION = "Lambda.ServiceException";

    private final Execution execution;
    private final ObjectNode contextBase;
    private final EngineClock clock;
    private final TaskResources resources;
    private final DataFlow data;
    private final ChoiceEvaluator choices;
    private final String region;
    private final RandomGenerator random;
    private final TaskTokens tokens;

    Interpreter(
            Execution execution,
            ObjectNode contextBase,
            EngineClock clock,
            TaskResources resources,
            DataFlow data,
            String region,
            RandomGenerator random,
            TaskTokens tokens) {
        this.tokens = tokens;
        this.execution = execution;
        this.contextBase = contextBase;
        this.clock = clock;
        this.resources = resources;
        this.data = data;
        this.choices = new ChoiceEvaluator(data);
        this.region = region;
        this.random = random;
    }

    /**
     * One line of control: its cancellation, the event it follows, the Map item it works on (if any), and whether it
     * runs the machine's own (top-level) states, whose positions are journaled.
     */
    static final class Frame {
        private final Cancellation token;
        private final ObjectNode mapItem;
        private final boolean topLevel;
        private long lastEventId;

        private Frame(Cancellation token, long lastEventId, ObjectNode mapItem, boolean topLevel) {
            this.token = token;
            this.lastEventId = lastEventId;
            this.mapItem = mapItem;
            this.topLevel = topLevel;
        }

        /** The execution's own line, following event {@code lastEventId}. */
        static Frame root(Cancellation token, long lastEventId) {
            return new Frame(token, lastEventId, null, true);
        }

        /** A Map iteration's or Parallel branch's line. */
        static Frame inner(Cancellation token, long lastEventId, ObjectNode mapItem) {
            return new Frame(token, lastEventId, mapItem, false);
        }
    }

    /**
     * How a Task, Map or Parallel state's attempts begin: fresh, or as a resumed execution left them (the retries
     * granted so far, a planned retry's time, a failure not yet handled, or a Task result not yet applied).
     */
    private record Recovery(
            int[] attemptsPerRetrier,
            int retryCount,
            Instant retryAt,
            StatesError pendingFailure,
            JsonNode taskResult,
            ResumedWait resumedWait) {
        static final Recovery FRESH = new Recovery(null, 0, null, null, null, null);
    }

    /** A callback Task's wait a resumed execution continues under its journaled token, and a callback it already got. */
    private record ResumedWait(JournalEntry.CallbackWait journaled, JournalEntry.CallbackArrived arrived) {}

    private record Step(JsonNode output, String next) {}

    /** Runs a graph to its end and returns its output; a Fail state or unhandled error throws StatesError. */
    JsonNode run(StateGraph graph, JsonNode input, Frame frame) {
        return runFrom(graph, graph.startAt(), input, frame);
    }

    /** Continues a journaled execution from {@code point} to the end of {@code graph} (its top-level graph). */
    JsonNode resume(StateGraph graph, ResumePoint point, Frame frame) {
        return switch (point.kind()) {
            case START -> run(graph, point.input(), frame);
            case ENTER -> runFrom(graph, point.state(), point.input(), frame);
            case FINISHED -> point.input();
            case CONTINUE -> {
                State state = graph.state(point.state());
                if (state == null) {
                    throw StatesError.runtime(
                            "State '" + point.state() + "' of the journal does not exist in the definition");
                }
                Step step = continueState(state, point, frame);
                yield step.next() == null ? step.output() : runFrom(graph, step.next(), step.output(), frame);
            }
        };
    }

    private JsonNode runFrom(StateGraph graph, String first, JsonNode input, Frame frame) {
        String current = first;
        JsonNode data = input;
        while (true) {
            frame.token.throwIfCancelled();
            State state = graph.state(current);
            if (state == null) {
                throw StatesError.runtime("State '" + current + "' does not exist");
            }
            Step step = runState(state, data, frame);
            if (step.next() == null) {
                return step.output();
            }
            current = step.next();
            data = step.output();
        }
    }

    private Step runState(State state, JsonNode input, Frame f) {
        Instant entered = clock.now();
        emit(
                f,
                HistoryEventType.entered(state.type()),
                new EventDetails.StateEntered(state.name(), input.toString(), NOT_TRUNCATED));
        return body(state, input, entered, f, Recovery.FRESH, null);
    }

    /**
     * Continues a top-level state a stopped engine left entered: a Wait waits for its journaled deadline; a Task whose
     * attempt was lost with the process fails that attempt, so its Retry rules decide (its functions are idempotent);
     * a Task answered before the stop exits with that answer; a callback Task whose call had returned waits again
     * under its journaled token (its result is the callback, never the call's answer); anything else runs its body
     * again.
     */
    private Step continueState(State state, ResumePoint point, Frame f) {
        int[] attempts = point.retry() == null
                ? null
                : point.retry().attemptsPerRetrier().stream()
                        .mapToInt(Integer::intValue)
                        .toArray();
        int retryCount = point.retry() == null ? 0 : point.retry().retryCount();
        Instant retryAt = point.retry() == null ? null : point.retry().at();
        StatesError failure = point.failure();
        if (state instanceof TaskState t && point.attemptInFlight()) {
            failure = lostAttempt(t, point.input(), point.entered(), retryCount, f);
        }
        ResumedWait resumedWait = state instanceof TaskState && failure == null && point.callbackWait() != null
                ? new ResumedWait(point.callbackWait(), point.callbackArrived())
                : null;
        Recovery recovery = new Recovery(
                attempts,
                retryCount,
                failure == null && point.taskResult() == null && resumedWait == null ? retryAt : null,
                failure,
                failure == null ? point.taskResult() : null,
                resumedWait);
        return body(state, point.input(), point.entered(), f, recovery, point.waitUntil());
    }

    /**
     * Records the failure of a Task attempt that was in flight when the engine stopped, and returns it: for a Lambda
     * function the error its service reports for an invocation it lost, otherwise States.TaskFailed.
     */
    private StatesError lostAttempt(TaskState t, JsonNode input, Instant entered, int retryCount, Frame f) {
        ObjectNode context = context(t.name(), entered, retryCount, f);
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
        TaskEvents events = task.directLambda() ? new LambdaFunctionEvents(task) : new ServiceTaskEvents(task, region);
        String error =
                task.directLambda() || task.lambdaIntegration() ? LOST_LAMBDA_INVOCATION : StatesErrors.TASK_FAILED;
        String cause = "The engine stopped while this attempt was in flight; the attempt is lost and handled as failed,"
                + " so the state's Retry rules decide whether it is made again";
        emit(f, events.failed(), events.errorDetails(error, cause));
        return StatesError.of(error, cause);
    }

    private Step body(State state, JsonNode input, Instant entered, Frame f, Recovery recovery, Instant waitUntil) {
        return switch (state) {
            case PassState p -> pass(p, input, entered, f);
            case TaskState t -> {
                // Only the first attempt of a resumed state continues its journaled wait; a retry starts afresh.
                java.util.concurrent.atomic.AtomicReference<ResumedWait> resumedWait =
                        new java.util.concurrent.atomic.AtomicReference<>(recovery.resumedWait());
                yield recoverable(
                        t,
                        t.retry(),
                        t.catchers(),
                        t.transition(),
                        input,
                        f,
                        recovery,
                        retryCount -> {
                            ResumedWait resumed = resumedWait.getAndSet(null);
                            return resumed != null
                                    ? resumeCallback(t, input, entered, retryCount, resumed, f)
                                    : task(t, input, entered, retryCount, f);
                        },
                        (result, retryCount) ->
                                taskOutput(t, input, context(t.name(), entered, retryCount, f), result));
            }
            case ChoiceState c -> choice(c, input, entered, f);
            case WaitState w -> await(w, input, entered, f, waitUntil);
            case SucceedState s -> {
                JsonNode context = context(s.name(), entered, 0, f);
                yield exit(
                        f,
                        s,
                        data.outputPath(data.inputPath(input, s.inputPath(), context), s.outputPath(), context),
                        null);
            }
            case FailState fail -> throw fail(fail, input, entered, f);
            case MapState m ->
                recoverable(
                        m,
                        m.retry(),
                        m.catchers(),
                        m.transition(),
                        input,
                        f,
                        recovery,
                        retryCount -> map(m, input, entered, retryCount, f),
                        null);
            case ParallelState p ->
                recoverable(
                        p,
                        p.retry(),
                        p.catchers(),
                        p.transition(),
                        input,
                        f,
                        recovery,
                        retryCount -> parallel(p, input, entered, retryCount, f),
                        null);
        };
    }

    private Step exit(Frame f, State state, JsonNode output, String next) {
        f.lastEventId = execution.emit(
                HistoryEventType.exited(state.type()),
                new EventDetails.StateExited(state.name(), output.toString(), NOT_TRUNCATED),
                f.lastEventId,
                f.topLevel,
                next,
                next == null);
        return new Step(output, next);
    }

    private Step pass(PassState p, JsonNode input, Instant entered, Frame f) {
        JsonNode context = context(p.name(), entered, 0, f);
        JsonNode effective = data.inputPath(input, p.inputPath(), context);
        JsonNode result = p.result() != null
                ? p.result()
                : p.parameters() != null ? data.template(p.parameters(), effective, context) : effective;
        JsonNode output = data.outputPath(data.resultPath(input, result, p.resultPath()), p.outputPath(), context);
        return exit(f, p, output, next(p.transition()));
    }

    private Step choice(ChoiceState c, JsonNode input, Instant entered, Frame f) {
        JsonNode context = context(c.name(), entered, 0, f);
        JsonNode effective = data.inputPath(input, c.inputPath(), context);
        String next = null;
        for (ChoiceBranch branch : c.choices()) {
            if (choices.matches(branch.rule(), effective, context)) {
                next = branch.next();
                break;
            }
        }
        if (next == null) {
            next = c.defaultState();
        }
        if (next == null) {
            throw StatesError.of(
                    StatesErrors.NO_CHOICE_MATCHED,
                    "No Matches! No choice rule of state '" + c.name() + "' matched the input " + effective);
        }
        return exit(f, c, data.outputPath(effective, c.outputPath(), context), next);
    }

    /** A Wait state; {@code journaledUntil} is the deadline a resumed execution had fixed (null: compute it). */
    private Step await(WaitState w, JsonNode input, Instant entered, Frame f, Instant journaledUntil) {
        JsonNode context = context(w.name(), entered, 0, f);
        JsonNode effective = data.inputPath(input, w.inputPath(), context);
        Instant until = journaledUntil != null
                ? journaledUntil
                : switch (w.waitFor()) {
                    case WaitFor.Seconds s -> entered.plusSeconds(s.seconds());
                    case WaitFor.Timestamp t -> t.timestamp();
                    case WaitFor.SecondsPath p -> {
                        JsonNode seconds = data.require(p.path(), effective, context, "SecondsPath");
                        if (!seconds.isIntegralNumber() || seconds.asLong() < 0) {
                            throw StatesError.runtime(
                                    "The SecondsPath parameter does not reference a valid non-negative" + " integer: "
                                            + seconds);
                        }
                        yield entered.plusSeconds(seconds.asLong());
                    }
                    case WaitFor.TimestampPath p -> {
                        Instant at =
                                ChoiceEvaluator.timestamp(data.require(p.path(), effective, context, "TimestampPath"));
                        if (at == null) {
                            throw StatesError.runtime("The TimestampPath parameter does not reference a valid ISO-8601"
                                    + " timestamp: " + p.path());
                        }
                        yield at;
                    }
                };
        if (journaledUntil == null && f.topLevel) {
            execution.checkpoint(new JournalEntry.WaitUntil(until));
        }
        if (until.isAfter(clock.now())) {
            f.token.sleepUntil(clock, until);
        }
        return exit(f, w, data.outputPath(effective, w.outputPath(), context), next(w.transition()));
    }

    private StatesError fail(FailState fail, JsonNode input, Instant entered, Frame f) {
        JsonNode context = context(fail.name(), entered, 0, f);
        String error = fail.errorPath() != null
                ? text(data.expression(fail.errorPath(), input, context, "ErrorPath"), "ErrorPath")
                : fail.error();
        String cause = fail.causePath() != null
                ? text(data.expression(fail.causePath(), input, context, "CausePath"), "CausePath")
                : fail.cause();
        return StatesError.of(error, cause);
    }

    private static String text(JsonNode value, String field) {
        if (!value.isTextual()) {
            throw StatesError.runtime("The " + field + " must select a string, found " + value);
        }
        return value.asText();
    }

    /**
     * Runs attempts of a Task/Map/Parallel state, applying its Retry then Catch rules to failures. A resumed state
     * starts from its {@code recovery}: the retries already granted, a planned retry's time, a failure to handle
     * first, or a Task result to finish with ({@code completion}). A top-level state journals each granted retry.
     */
    private Step recoverable(
            State state,
            List<Retrier> retriers,
            List<Catcher> catchers,
            Transition transition,
            JsonNode input,
            Frame f,
            Recovery recovery,
            Attempt attempt,
            Completion completion) {
        int[] attemptsPerRetrier =
                recovery.attemptsPerRetrier() != null && recovery.attemptsPerRetrier().length == retriers.size()
                        ? recovery.attemptsPerRetrier().clone()
                        : new int[retriers.size()];
        int retryCount = recovery.retryCount();
        if (recovery.taskResult() != null && completion != null) {
            return exit(f, state, completion.complete(recovery.taskResult(), retryCount), next(transition));
        }
        if (recovery.retryAt() != null && recovery.retryAt().isAfter(clock.now())) {
            f.token.sleepUntil(clock, recovery.retryAt());
        }
        StatesError pending = recovery.pendingFailure();
        while (true) {
            try {
                if (pending != null) {
                    StatesError first = pending;
                    pending = null;
                    throw first;
                }
                return exit(f, state, attempt.run(retryCount), next(transition));
            } catch (StatesError e) {
                if (e.terminal()) {
                    throw e;
                }
                int r = firstMatch(retriers, e);
                if (r >= 0 && attemptsPerRetrier[r] < retriers.get(r).maxAttempts()) {
                    Duration delay = RetryBackoff.delay(retriers.get(r), attemptsPerRetrier[r], random);
                    attemptsPerRetrier[r]++;
                    retryCount++;
                    Instant at = clock.now().plus(delay);
                    if (f.topLevel) {
                        execution.checkpoint(new JournalEntry.RetryPlanned(
                                java.util.Arrays.stream(attemptsPerRetrier)
                                        .boxed()
                                        .toList(),
                                retryCount,
                                at));
                    }
                    f.token.sleepUntil(clock, at);
                    continue;
                }
                for (Catcher catcher : catchers) {
                    if (e.matches(catcher.errorEquals())) {
                        return exit(
                                f, state, data.resultPath(input, e.asOutput(), catcher.resultPath()), catcher.next());
                    }
                }
                throw e;
            }
        }
    }

    /** Finishes a Task state with a result its attempt had already produced (a resumed execution). */
    @FunctionalInterface
    private interface Completion {
        JsonNode complete(JsonNode result, int retryCount);
    }

    @FunctionalInterface
    private interface Attempt {
        JsonNode run(int retryCount);
    }

    private static int firstMatch(List<Retrier> retriers, StatesError e) {
        for (int i = 0; i < retriers.size(); i++) {
            if (e.matches(retriers.get(i).errorEquals())) {
                return i;
            }
        }
        return -1;
    }

    private JsonNode task(TaskState t, JsonNode input, Instant entered, int retryCount, Frame f) {
        ObjectNode context = context(t.name(), entered, retryCount, f);
        // A callback task gets a token per attempt (a retry waits under a new one), valid only while it waits.
        TaskTokens.Waiting waiting = t.resource() != null && t.resource().endsWith(TaskResources.WAIT_FOR_TASK_TOKEN)
                ? tokens.open(clock)
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
        TaskEvents events = task.directLambda() ? new LambdaFunctionEvents(task) : new ServiceTaskEvents(task, region);
        return new PreparedTask(task, parameters, timeout, heartbeat, events);
    }

    private JsonNode task(
            TaskState t, JsonNode input, ObjectNode context, int retryCount, TaskTokens.Waiting waiting, Frame f) {
        PreparedTask p = prepare(t, input, context);
        emit(
                f,
                p.events().scheduled(),
                p.events()
                        .scheduledDetails(
                                p.parameters(),
                                p.timeout(),
                                p.heartbeat() == null ? null : p.heartbeat().intValue()));
        emit(f, p.events().started(), p.events().startedDetails());

        TaskOutcome outcome = invoke(t, p.task(), p.parameters(), retryCount, p.timeout(), f);
        if (waiting != null && outcome instanceof TaskOutcome.Succeeded submitted) {
            if (f.topLevel) {
                // The token and the wait's start are journaled before TaskSubmitted, so a restart waits on.
                execution.checkpoint(new JournalEntry.CallbackWait(waiting.token(), waiting.startedAt()));
            }
            emit(
                    f,
                    HistoryEventType.TaskSubmitted,
                    p.events().succeededDetails(p.task().result(submitted.output())));
            outcome = awaitCallback(waiting, p.timeout(), p.heartbeat(), f);
        }
        return finish(t, input, context, p, waiting != null, outcome, f);
    }

    /**
     * Continues a callback Task's wait that a stopped engine left open: under the same token, its TimeoutSeconds still
     * counted from when the wait was opened; the call that handed the token over is not made again.
     */
    private JsonNode resumeCallback(
            TaskState t, JsonNode input, Instant entered, int retryCount, ResumedWait resumed, Frame f) {
        ObjectNode context = context(t.name(), entered, retryCount, f);
        context.putObject("Task").put("Token", resumed.journaled().token());
        PreparedTask p = prepare(t, input, context);
        TaskTokens.Waiting waiting = tokens.reopen(
                resumed.journaled().token(),
                resumed.journaled().openedAt(),
                clock,
                TaskTokens.fromJournal(resumed.arrived()));
        journalCallbacks(waiting, f);
        try {
            return finish(t, input, context, p, true, awaitCallback(waiting, p.timeout(), p.heartbeat(), f), f);
        } finally {
            tokens.close(waiting.token());
        }
    }

    /** A top-level wait journals the callback that ends it before the callback is accepted. */
    private void journalCallbacks(TaskTokens.Waiting waiting, Frame f) {
        if (f.topLevel) {
            waiting.journalTo(callback -> execution.checkpoint(TaskTokens.toJournal(waiting.token(), callback)));
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
                emit(f, events.succeeded(), events.succeededDetails(result));
                yield taskOutput(t, input, context, result);
            }
            case TaskOutcome.Failed failed -> {
                emit(f, events.failed(), events.errorDetails(failed.error(), failed.cause()));
                throw StatesError.of(failed.error(), failed.cause());
            }
            case TaskOutcome.TimedOut timedOut -> {
                emit(f, events.timedOut(), events.errorDetails(timedOut.error(), timedOut.cause()));
                throw StatesError.of(timedOut.error(), timedOut.cause());
            }
        };
    }

    /**
     * Waits for SendTaskSuccess/SendTaskFailure on the task's token. TimeoutSeconds counts from the task's start,
     * HeartbeatSeconds from the start or the last SendTaskHeartbeat; whichever passes first ends the wait.
     */
    private TaskOutcome awaitCallback(TaskTokens.Waiting waiting, Long timeout, Long heartbeat, Frame f) {
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

    /** A Task state's output from its (already wrapped) result: ResultSelector, ResultPath, OutputPath. */
    private JsonNode taskOutput(TaskState t, JsonNode input, JsonNode context, JsonNode result) {
        JsonNode selected = t.resultSelector() != null ? data.template(t.resultSelector(), result, context) : result;
        return data.outputPath(data.resultPath(input, selected, t.resultPath()), t.outputPath(), context);
    }

    /** The history events of a Task call: Task* for service integrations, LambdaFunction* for function ARNs. */
    private sealed interface TaskEvents {
        HistoryEventType scheduled();

        HistoryEventType started();

        HistoryEventType succeeded();

        HistoryEventType failed();

        HistoryEventType timedOut();

        EventDetails scheduledDetails(JsonNode parameters, Long timeout, Integer heartbeat);

        EventDetails startedDetails();

        EventDetails succeededDetails(JsonNode output);

        EventDetails errorDetails(String error, String cause);
    }

    private record ServiceTaskEvents(TaskResources.ResolvedTask task, String region) implements TaskEvents {
        public HistoryEventType scheduled() {
            return HistoryEventType.TaskScheduled;
        }

        public HistoryEventType started() {
            return HistoryEventType.TaskStarted;
        }

        public HistoryEventType succeeded() {
            return HistoryEventType.TaskSucceeded;
        }

        public HistoryEventType failed() {
            return HistoryEventType.TaskFailed;
        }

        public HistoryEventType timedOut() {
            return HistoryEventType.TaskTimedOut;
        }

        public EventDetails scheduledDetails(JsonNode parameters, Long timeout, Integer heartbeat) {
            return new EventDetails.TaskScheduled(
                    task.resourceType(),
                    task.resourceName(),
                    region,
                    parameters.toString(),
                    timeout,
                    heartbeat == null ? null : Long.valueOf(heartbeat));
        }

        public EventDetails startedDetails() {
            return new EventDetails.TaskStarted(task.resourceType(), task.resourceName());
        }

        public EventDetails succeededDetails(JsonNode output) {
            return new EventDetails.TaskSucceeded(
                    task.resourceType(), task.resourceName(), output.toString(), NOT_TRUNCATED);
        }

        public EventDetails errorDetails(String error, String cause) {
            return new EventDetails.TaskError(task.resourceType(), task.resourceName(), error, cause);
        }
    }

    private record LambdaFunctionEvents(TaskResources.ResolvedTask task) implements TaskEvents {
        public HistoryEventType scheduled() {
            return HistoryEventType.LambdaFunctionScheduled;
        }

        public HistoryEventType started() {
            return HistoryEventType.LambdaFunctionStarted;
        }

        public HistoryEventType succeeded() {
            return HistoryEventType.LambdaFunctionSucceeded;
        }

        public HistoryEventType failed() {
            return HistoryEventType.LambdaFunctionFailed;
        }

        public HistoryEventType timedOut() {
            return HistoryEventType.LambdaFunctionTimedOut;
        }

        public EventDetails scheduledDetails(JsonNode parameters, Long timeout, Integer heartbeat) {
            return new EventDetails.LambdaFunctionScheduled(
                    task.target(), parameters.toString(), NOT_TRUNCATED, timeout);
        }

        public EventDetails startedDetails() {
            return null;
        }

        public EventDetails succeededDetails(JsonNode output) {
            return new EventDetails.LambdaFunctionSucceeded(output.toString(), NOT_TRUNCATED);
        }

        public EventDetails errorDetails(String error, String cause) {
            return new EventDetails.Failure(error, cause);
        }
    }

    private static long positiveSeconds(JsonNode value) {
        if (!value.isIntegralNumber() || value.asLong() <= 0) {
            throw StatesError.runtime("TimeoutSecondsPath must select a positive integer, found " + value);
        }
        return value.asLong();
    }

    private sealed interface TaskOutcome {
        record Succeeded(JsonNode output) implements TaskOutcome {}

        record Failed(String error, String cause) implements TaskOutcome {}

        record TimedOut(String error, String cause) implements TaskOutcome {}
    }

    /**
     * Calls the resource on its own participant thread so that the state can stop waiting for it when
     * TimeoutSeconds passes on the engine clock, or when the execution is stopped.
     */
    private TaskOutcome invoke(
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

    private JsonNode map(MapState m, JsonNode input, Instant entered, int retryCount, Frame f) {
        JsonNode context = context(m.name(), entered, retryCount, f);
        JsonNode effective = data.inputPath(input, m.inputPath(), context);
        JsonNode items = data.require(m.itemsPath(), effective, context, "ItemsPath");
        if (!items.isArray()) {
            throw StatesError.runtime("Map state '" + m.name() + "': ItemsPath '" + m.itemsPath()
                    + "' must select an array, found " + items);
        }
        int concurrency = m.maxConcurrency();
        if (m.maxConcurrencyPath() != null) {
            JsonNode value = data.require(m.maxConcurrencyPath(), effective, context, "MaxConcurrencyPath");
            if (!value.isIntegralNumber() || value.asInt() < 0) {
                throw StatesError.runtime("MaxConcurrencyPath must select a non-negative integer, found " + value);
            }
            concurrency = value.asInt();
        }
        emit(f, HistoryEventType.MapStateStarted, new EventDetails.MapStateStarted(items.size()));
        long startedId = f.lastEventId;
        JsonNode results = fanOut(
                items.size(),
                concurrency,
                f,
                (index, token) -> {
                    ObjectNode item = NODES.objectNode();
                    item.put("Index", index);
                    item.set("Value", items.get(index));
                    Frame iteration = Frame.inner(token, startedId, item);
                    EventDetails.MapIteration details = new EventDetails.MapIteration(m.name(), index);
                    emit(iteration, HistoryEventType.MapIterationStarted, details);
                    try {
                        JsonNode itemInput = m.itemSelector() != null
                                ? data.template(
                                        m.itemSelector(), effective, context(m.name(), entered, retryCount, iteration))
                                : items.get(index);
                        JsonNode output = run(m.itemProcessor(), itemInput, iteration);
                        emit(iteration, HistoryEventType.MapIterationSucceeded, details);
                        return output;
                    } catch (StatesError e) {
                        emit(iteration, HistoryEventType.MapIterationFailed, details);
                        throw e;
                    } catch (Cancellation.Cancelled c) {
                        emit(iteration, HistoryEventType.MapIterationAborted, details);
                        throw c;
                    }
                },
                HistoryEventType.MapStateFailed);
        emit(f, HistoryEventType.MapStateSucceeded, null);
        JsonNode selected = m.resultSelector() != null ? data.template(m.resultSelector(), results, context) : results;
        return data.outputPath(data.resultPath(input, selected, m.resultPath()), m.outputPath(), context);
    }

    private JsonNode parallel(ParallelState p, JsonNode input, Instant entered, int retryCount, Frame f) {
        JsonNode context = context(p.name(), entered, retryCount, f);
        JsonNode effective = data.inputPath(input, p.inputPath(), context);
        JsonNode branchInput = p.parameters() != null ? data.template(p.parameters(), effective, context) : effective;
        emit(f, HistoryEventType.ParallelStateStarted, null);
        long startedId = f.lastEventId;
        JsonNode results = fanOut(
                p.branches().size(),
                0,
                f,
                (index, token) -> {
                    try {
                        return run(p.branches().get(index), branchInput, Frame.inner(token, startedId, f.mapItem));
                    } catch (StatesError e) {
                        // A branch keeps its own error name for Retry/Catch; only a nameless failure becomes
                        // BranchFailed.
                        throw e.error() == null && !e.terminal()
                                ? StatesError.of(StatesErrors.BRANCH_FAILED, e.cause())
                                : e;
                    }
                },
                HistoryEventType.ParallelStateFailed);
        emit(f, HistoryEventType.ParallelStateSucceeded, null);
        JsonNode selected = p.resultSelector() != null ? data.template(p.resultSelector(), results, context) : results;
        return data.outputPath(data.resultPath(input, selected, p.resultPath()), p.outputPath(), context);
    }

    @FunctionalInterface
    private interface Branch {
        JsonNode run(int index, Cancellation token);
    }

    /**
     * Runs {@code count} branches with at most {@code concurrency} (0 = all) at a time and collects their outputs
     * in order. The first failure cancels the others and is rethrown after {@code failedEvent} is recorded.
     */
    private JsonNode fanOut(int count, int concurrency, Frame f, Branch branch, HistoryEventType failedEvent) {
        ArrayNode results = NODES.arrayNode();
        if (count == 0) {
            return results;
        }
        Cancellation group = f.token.child();
        JsonNode[] outputs = new JsonNode[count];
        AtomicReference<StatesError> failure = new AtomicReference<>();
        AtomicInteger nextIndex = new AtomicInteger();
        int workers = concurrency <= 0 ? count : Math.min(concurrency, count);
        AtomicInteger running = new AtomicInteger(workers);
        EngineClock.Gate done = clock.newGate();
        for (int w = 0; w < workers; w++) {
            clock.start(execution.name() + "/fan-out-" + w, () -> {
                try {
                    while (group.reason() == null) {
                        int index = nextIndex.getAndIncrement();
                        if (index >= count) {
                            break;
                        }
                        try {
                            outputs[index] = branch.run(index, group);
                        } catch (StatesError e) {
                            if (failure.compareAndSet(null, e)) {
                                group.cancel(Cancellation.Reason.SIBLING_FAILED);
                            }
                        } catch (Cancellation.Cancelled c) {
                            break;
                        }
                    }
                } catch (RuntimeException unexpected) {
                    failure.compareAndSet(null, StatesError.runtime("Unexpected engine error: " + unexpected));
                    group.cancel(Cancellation.Reason.SIBLING_FAILED);
                } finally {
                    if (running.decrementAndGet() == 0) {
                        done.open();
                    }
                }
            });
        }
        try {
            f.token.await(done, null);
        } finally {
            group.detach();
        }
        StatesError error = failure.get();
        if (error != null) {
            emit(f, failedEvent, null);
            throw error;
        }
        for (JsonNode output : outputs) {
            results.add(output);
        }
        return results;
    }

    /** The context object ($$) for a state. */
    private ObjectNode context(String stateName, Instant entered, int retryCount, Frame f) {
        ObjectNode context = contextBase.deepCopy();
        ObjectNode state = context.putObject("State");
        state.put("EnteredTime", CONTEXT_TIME.format(entered));
        state.put("Name", stateName);
        state.put("RetryCount", retryCount);
        if (f.mapItem != null) {
            context.putObject("Map").set("Item", f.mapItem);
        }
        return context;
    }

    static String contextTime(Instant instant) {
        return CONTEXT_TIME.format(instant);
    }

    private void emit(Frame f, HistoryEventType type, EventDetails details) {
        f.lastEventId = execution.emit(type, details, f.lastEventId, f.topLevel, null, false);
    }

    private static String next(Transition transition) {
        return transition instanceof Transition.Next n ? n.state() : null;
    }
}
