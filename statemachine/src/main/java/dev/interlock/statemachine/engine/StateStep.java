package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.statemachine.model.State;
import java.time.Instant;

/**
 * What one type of state does once the {@link Interpreter} has entered it: it reads its input, records its history
 * events, and exits with its output and the state to go to next (a Fail state, or an error no Catch handles, throws
 * {@link StatesError} instead).
 */
sealed interface StateStep<S extends State>
        permits PassStep, TaskStep, ChoiceStep, WaitStep, SucceedStep, FailStep, MapStep, ParallelStep {

    Exit run(S state, Entry entry);

    /**
     * A state as the interpreter entered it: its input, when it was entered, the line it runs on, how its attempts
     * begin (fresh, or as a resumed execution left them), and a Wait's journaled deadline (null: compute it).
     */
    record Entry(JsonNode input, Instant entered, Frame frame, RetryAndCatch.Start start, Instant waitUntil) {

        /** A state entered afresh. */
        static Entry fresh(JsonNode input, Instant entered, Frame frame) {
            return new Entry(input, entered, frame, RetryAndCatch.Start.FRESH, null);
        }
    }

    /** A state's output and the state to go to next (null: its graph ends with this output). */
    record Exit(JsonNode output, String next) {}
}
