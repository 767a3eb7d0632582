package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.statemachine.model.ChoiceState;
import dev.interlock.statemachine.model.FailState;
import dev.interlock.statemachine.model.MapState;
import dev.interlock.statemachine.model.ParallelState;
import dev.interlock.statemachine.model.PassState;
import dev.interlock.statemachine.model.State;
import dev.interlock.statemachine.model.StateGraph;
import dev.interlock.statemachine.model.SucceedState;
import dev.interlock.statemachine.model.TaskState;
import dev.interlock.statemachine.model.WaitState;
import java.time.Instant;
import java.util.random.RandomGenerator;

/**
 * Runs the states of one execution, one after another: it enters each state (recording StateEntered), hands it to the
 * {@link StateStep} of its type, and follows the state the step names next. A resumed execution continues from its
 * {@link ResumePoint}. The data flow, Retry and Catch ({@link RetryAndCatch}), waits, tasks and the Map and Parallel
 * fan-out live in the steps.
 */
final class Interpreter {

    private final StepSupport support;
    private final PassStep pass;
    private final TaskStep task;
    private final ChoiceStep choice;
    private final WaitStep await;
    private final SucceedStep succeed;
    private final FailStep fail;
    private final MapStep map;
    private final ParallelStep parallel;

    Interpreter(
            Execution execution,
            ObjectNode contextBase,
            EngineClock clock,
            TaskResources resources,
            DataFlow data,
            String region,
            RandomGenerator random,
            TaskTokens tokens) {
        this.support = new StepSupport(execution, contextBase, clock, data);
        RetryAndCatch recovery = new RetryAndCatch(support, random);
        FanOut fanOut = new FanOut(support);
        this.pass = new PassStep(support);
        this.task = new TaskStep(support, recovery, resources, tokens, region);
        this.choice = new ChoiceStep(support);
        this.await = new WaitStep(support);
        this.succeed = new SucceedStep(support);
        this.fail = new FailStep(support);
        this.map = new MapStep(support, recovery, fanOut, this);
        this.parallel = new ParallelStep(support, recovery, fanOut, this);
    }

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
                StateStep.Exit exit = continueState(state, point, frame);
                yield exit.next() == null ? exit.output() : runFrom(graph, exit.next(), exit.output(), frame);
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
            StateStep.Exit exit = runState(state, data, frame);
            if (exit.next() == null) {
                return exit.output();
            }
            current = exit.next();
            data = exit.output();
        }
    }

    private StateStep.Exit runState(State state, JsonNode input, Frame f) {
        Instant entered = support.clock.now();
        support.emit(
                f,
                HistoryEventType.entered(state.type()),
                new EventDetails.StateEntered(state.name(), input.toString(), StepSupport.NOT_TRUNCATED));
        return step(state, StateStep.Entry.fresh(input, entered, f));
    }

    /**
     * Continues a top-level state a stopped engine left entered: a Wait waits for its journaled deadline; a Task whose
     * attempt was lost with the process fails that attempt, so its Retry rules decide (its functions are idempotent);
     * a Task answered before the stop exits with that answer; a callback Task whose call had returned waits again
     * under its journaled token (its result is the callback, never the call's answer); anything else runs its body
     * again.
     */
    private StateStep.Exit continueState(State state, ResumePoint point, Frame f) {
        int[] attempts = point.retry() == null
                ? null
                : point.retry().attemptsPerRetrier().stream()
                        .mapToInt(Integer::intValue)
                        .toArray();
        int retryCount = point.retry() == null ? 0 : point.retry().retryCount();
        Instant retryAt = point.retry() == null ? null : point.retry().at();
        StatesError failure = point.failure();
        if (state instanceof TaskState t && point.attemptInFlight()) {
            failure = task.lostAttempt(t, point.input(), point.entered(), retryCount, f);
        }
        TaskStep.ResumedWait resumedWait = state instanceof TaskState && failure == null && point.callbackWait() != null
                ? new TaskStep.ResumedWait(point.callbackWait(), point.callbackArrived())
                : null;
        RetryAndCatch.Start start = new RetryAndCatch.Start(
                attempts,
                retryCount,
                failure == null && point.taskResult() == null && resumedWait == null ? retryAt : null,
                failure,
                failure == null ? point.taskResult() : null,
                resumedWait);
        return step(state, new StateStep.Entry(point.input(), point.entered(), f, start, point.waitUntil()));
    }

    /** Hands an entered state to the step of its type. */
    private StateStep.Exit step(State state, StateStep.Entry entry) {
        return switch (state) {
            case PassState p -> pass.run(p, entry);
            case TaskState t -> task.run(t, entry);
            case ChoiceState c -> choice.run(c, entry);
            case WaitState w -> await.run(w, entry);
            case SucceedState s -> succeed.run(s, entry);
            case FailState f -> fail.run(f, entry);
            case MapState m -> map.run(m, entry);
            case ParallelState p -> parallel.run(p, entry);
        };
    }
}
