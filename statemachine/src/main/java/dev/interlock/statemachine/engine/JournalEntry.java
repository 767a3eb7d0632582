package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * One line of an execution's journal ({@link ExecutionStore}): the execution's identity, each history event as
 * GetExecutionHistory shows it (top-level state exits annotated with where the execution goes next), and the
 * position a history does not show: a Wait's deadline and a Retry's planned next attempt. Replaying the lines gives
 * back the history and the point to continue from ({@link ResumePoint}).
 */
sealed interface JournalEntry {

    /** The first line: the execution's name, input and start, written before anything runs. */
    record Started(String name, JsonNode input, Instant startDate) implements JournalEntry {}

    /**
     * A history event. {@code topLevel} events belong to the machine's own states (not to a Map iteration or a
     * Parallel branch); a top-level state exit carries the state entered next, or {@code graphEnds} when the
     * execution's graph ends there.
     */
    record Event(HistoryEvent event, boolean topLevel, String next, boolean graphEnds) implements JournalEntry {}

    /** A top-level Wait state waits until {@code until} (its deadline, fixed when it was entered). */
    record WaitUntil(Instant until) implements JournalEntry {}

    /**
     * A top-level Task, Map or Parallel state failed and its Retry rules granted another attempt at {@code at}:
     * the attempts each retrier has granted so far and the state's retry count (its {@code $$.State.RetryCount}).
     */
    record RetryPlanned(List<Integer> attemptsPerRetrier, int retryCount, Instant at) implements JournalEntry {}

    /**
     * A top-level {@code .waitForTaskToken} Task's call returned and it waits under {@code token}, opened at
     * {@code openedAt} (its TimeoutSeconds count from there): a resumed execution waits under the same token, so a
     * callback sent after a restart still ends the wait, as on AWS.
     */
    record CallbackWait(String token, Instant openedAt) implements JournalEntry {}

    /**
     * A callback (SendTaskSuccess with {@code output}, or SendTaskFailure with {@code error}/{@code cause}) reached the
     * waiting task under {@code token}: journaled before the call is answered, so an accepted callback is never lost.
     */
    record CallbackArrived(String token, JsonNode output, String error, String cause) implements JournalEntry {}
}
