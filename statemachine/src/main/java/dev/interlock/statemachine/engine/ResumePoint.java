package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a journaled, unfinished execution stands, read back from its journal: the top-level state to continue and
 * what that state had done. Only the machine's own (top-level) states are positions: a Map or Parallel state that was
 * running is run again from its input (its iterations are idempotent Task calls like any other).
 *
 * @param kind            what to do next
 * @param state           the state to enter ({@link Kind#ENTER}) or to continue ({@link Kind#CONTINUE})
 * @param input           that state's input; for {@link Kind#FINISHED} the execution's output
 * @param entered         when the continued state was entered (its {@code $$.State.EnteredTime})
 * @param lastEventId     the last top-level event, which the next top-level event follows
 * @param waitUntil       a continued Wait state's deadline
 * @param retry           a continued state's last planned retry (null: none since it was entered)
 * @param attemptInFlight a continued Task's attempt was scheduled and never answered: it was lost with the process
 * @param taskResult      a continued Task's attempt succeeded with this result before the state could exit
 * @param failure         a continued state's last attempt failed with this error and nothing was decided yet
 * @param callbackWait    a continued callback Task's call returned and it waits under this journaled token (a
 *                        {@code TaskSubmitted} is not the task's result: the callback is)
 * @param callbackArrived the callback that ended that wait before the stop (null: none yet)
 */
record ResumePoint(
        Kind kind,
        String state,
        JsonNode input,
        Instant entered,
        long lastEventId,
        Instant waitUntil,
        JournalEntry.RetryPlanned retry,
        boolean attemptInFlight,
        JsonNode taskResult,
        StatesError failure,
        JournalEntry.CallbackWait callbackWait,
        JournalEntry.CallbackArrived callbackArrived) {

    /** What the resumed execution does first. */
    enum Kind {
        /** Nothing ran: start at StartAt with the execution input. */
        START,
        /** A state exited; enter the next one with its input. */
        ENTER,
        /** A state was entered and did not exit: continue it. */
        CONTINUE,
        /** The last state ended the graph; the execution succeeded with {@code input} as its output. */
        FINISHED
    }

    /** Reads the position from a journal's entries (the execution has no final event). */
    static ResumePoint of(List<JournalEntry> entries, JsonNode executionInput) {
        Kind kind = Kind.START;
        String state = null;
        JsonNode input = executionInput;
        Instant entered = null;
        long lastEventId = 0;
        Instant waitUntil = null;
        JournalEntry.RetryPlanned retry = null;
        boolean inFlight = false;
        JsonNode result = null;
        StatesError failure = null;
        JournalEntry.CallbackWait opened = null;
        JournalEntry.CallbackWait waiting = null;
        Map<String, JournalEntry.CallbackArrived> arrived = new HashMap<>();
        for (JournalEntry entry : entries) {
            switch (entry) {
                case JournalEntry.Event e
                when e.topLevel() || e.event().type() == HistoryEventType.ExecutionStarted -> {
                    lastEventId = e.event().id();
                    switch (e.event().details()) {
                        case EventDetails.StateEntered s
                        when e.event().type().name().endsWith("StateEntered") -> {
                            kind = Kind.CONTINUE;
                            state = s.name();
                            input = json(s.input());
                            entered = e.event().timestamp();
                            waitUntil = null;
                            retry = null;
                            inFlight = false;
                            result = null;
                            failure = null;
                            opened = null;
                            waiting = null;
                        }
                        case EventDetails.StateExited s -> {
                            kind = e.graphEnds() ? Kind.FINISHED : Kind.ENTER;
                            state = e.next();
                            input = json(s.output());
                        }
                        case EventDetails.LambdaFunctionScheduled ignored -> {
                            inFlight = true;
                            failure = null;
                        }
                        case EventDetails.TaskScheduled ignored -> {
                            inFlight = true;
                            failure = null;
                        }
                        case EventDetails.TaskSucceeded ignored
                        when e.event().type() == HistoryEventType.TaskSubmitted -> {
                            // The call that handed the token over returned; the wait goes on under the token (a
                            // journal without it cannot be waited on again: its attempt counts as lost).
                            if (opened != null) {
                                inFlight = false;
                                waiting = opened;
                            }
                        }
                        case EventDetails.LambdaFunctionSucceeded s -> {
                            inFlight = false;
                            result = json(s.output());
                        }
                        case EventDetails.TaskSucceeded s -> {
                            inFlight = false;
                            waiting = null;
                            result = json(s.output());
                        }
                        case EventDetails.Failure f
                        when isTaskEnd(e.event().type()) -> {
                            inFlight = false;
                            failure = StatesError.of(f.error(), f.cause());
                        }
                        case EventDetails.TaskError f -> {
                            inFlight = false;
                            waiting = null;
                            failure = StatesError.of(f.error(), f.cause());
                        }
                        case null, default -> {}
                    }
                }
                case JournalEntry.WaitUntil w -> waitUntil = w.until();
                case JournalEntry.RetryPlanned r -> {
                    retry = r;
                    failure = null;
                    waiting = null;
                }
                case JournalEntry.CallbackWait w -> opened = w;
                case JournalEntry.CallbackArrived c -> arrived.put(c.token(), c);
                default -> {}
            }
        }
        return new ResumePoint(
                kind,
                state,
                input,
                entered,
                lastEventId,
                waitUntil,
                retry,
                inFlight,
                result,
                failure,
                waiting,
                waiting == null ? null : arrived.get(waiting.token()));
    }

    private static boolean isTaskEnd(HistoryEventType type) {
        return type == HistoryEventType.LambdaFunctionFailed || type == HistoryEventType.LambdaFunctionTimedOut;
    }

    private static JsonNode json(String text) {
        try {
            return EngineJson.mapper().readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a journaled event holds invalid JSON: " + text, e);
        }
    }
}
