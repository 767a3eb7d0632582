package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A handle on one execution of a {@link StateMachine}: its description, its history, and its completion. Every event
 * and position is also written to the execution's journal (nothing, in memory; see {@link ExecutionStore}).
 */
public final class Execution {

    private final String executionArn;
    private final String stateMachineArn;
    private final String name;
    private final JsonNode input;
    private final Instant startDate;
    private final EngineClock clock;
    private final List<HistoryEvent> history = new ArrayList<>();
    private final CompletableFuture<ExecutionDescription> completion = new CompletableFuture<>();
    private final Cancellation cancellation = new Cancellation();
    private final ExecutionStore.Journal journal;
    private ExecutionStatus status = ExecutionStatus.RUNNING;
    /** Set when the engine stops with the process: the execution is left as journaled, to continue after a restart. */
    private boolean halted;

    private Instant stopDate;
    private String output;
    private String error;
    private String cause;

    /** A new execution; its journal's first line is written here, before anything runs. */
    Execution(
            String executionArn,
            String stateMachineArn,
            String name,
            JsonNode input,
            EngineClock clock,
            ExecutionStore.Journal journal) {
        this.executionArn = executionArn;
        this.stateMachineArn = stateMachineArn;
        this.name = name;
        this.input = input;
        this.clock = clock;
        this.startDate = clock.now();
        this.journal = journal;
        journal.append(new JournalEntry.Started(name, input, startDate));
    }

    /** An execution read back from its journal: its history as recorded and, if it ended, its final state. */
    Execution(
            String executionArn,
            String stateMachineArn,
            JournalEntry.Started started,
            List<HistoryEvent> recorded,
            EngineClock clock,
            ExecutionStore.Journal journal) {
        this.executionArn = executionArn;
        this.stateMachineArn = stateMachineArn;
        this.name = started.name();
        this.input = started.input();
        this.clock = clock;
        this.startDate = started.startDate();
        this.journal = journal;
        history.addAll(recorded);
        if (!recorded.isEmpty()) {
            HistoryEvent last = recorded.getLast();
            ExecutionStatus end = switch (last.type()) {
                case ExecutionSucceeded -> ExecutionStatus.SUCCEEDED;
                case ExecutionFailed -> ExecutionStatus.FAILED;
                case ExecutionTimedOut -> ExecutionStatus.TIMED_OUT;
                case ExecutionAborted -> ExecutionStatus.ABORTED;
                default -> ExecutionStatus.RUNNING;
            };
            if (end.isTerminal()) {
                status = end;
                stopDate = last.timestamp();
                switch (last.details()) {
                    case EventDetails.ExecutionSucceeded s -> output = s.output();
                    case EventDetails.Failure f -> {
                        error = f.error();
                        cause = f.cause();
                    }
                    case null, default -> {}
                }
                journal.close();
                completion.complete(describe());
            }
        }
    }

    public String executionArn() {
        return executionArn;
    }

    public String name() {
        return name;
    }

    public Instant startDate() {
        return startDate;
    }

    JsonNode input() {
        return input;
    }

    Cancellation cancellation() {
        return cancellation;
    }

    public synchronized ExecutionStatus status() {
        return status;
    }

    /** The DescribeExecution view as of now. */
    public synchronized ExecutionDescription describe() {
        return new ExecutionDescription(
                executionArn,
                stateMachineArn,
                name,
                status,
                startDate,
                stopDate,
                input.toString(),
                output,
                error,
                cause);
    }

    /** The events recorded so far, oldest first. */
    public synchronized List<HistoryEvent> history() {
        return List.copyOf(history);
    }

    /** Completes with the final description when the execution ends. */
    public CompletableFuture<ExecutionDescription> completion() {
        return completion.copy();
    }

    /**
     * Blocks the calling (non-engine) thread until the execution ends, for at most {@code timeout} of real time.
     * Never call this from a task resource: under a {@link VirtualClock} nothing else runs meanwhile.
     */
    public ExecutionDescription await(Duration timeout) throws TimeoutException, InterruptedException {
        try {
            return completion.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("execution completion failed", e.getCause());
        }
    }

    /** Appends an event inside a Map iteration or Parallel branch (see the next method). */
    synchronized long emit(HistoryEventType type, EventDetails details, long previousEventId) {
        return emit(type, details, previousEventId, false, null, false);
    }

    /**
     * Appends an event unless the execution has already ended (or the engine stopped); returns the new event's id.
     * {@code topLevel}: the event belongs to one of the machine's own states; a top-level state exit says which state
     * comes {@code next}, or that the graph {@code ends} there.
     */
    synchronized long emit(
            HistoryEventType type,
            EventDetails details,
            long previousEventId,
            boolean topLevel,
            String next,
            boolean ends) {
        if (status.isTerminal() || halted) {
            return previousEventId;
        }
        return append(type, details, previousEventId, topLevel, next, ends);
    }

    /** Journals a position a history does not show (a Wait's deadline, a planned retry) of a running execution. */
    synchronized void checkpoint(JournalEntry position) {
        if (!status.isTerminal() && !halted) {
            journal.append(position);
        }
    }

    private long append(
            HistoryEventType type,
            EventDetails details,
            long previousEventId,
            boolean topLevel,
            String next,
            boolean ends) {
        long id = history.size() + 1L;
        HistoryEvent event = new HistoryEvent(id, previousEventId, clock.now(), type, details);
        journal.append(new JournalEntry.Event(event, topLevel, next, ends));
        history.add(event);
        return id;
    }

    /**
     * Stops recording, for an engine stopping with its process: nothing more is appended or journaled, the execution
     * stays RUNNING in its journal and continues when a new engine reads it back.
     */
    synchronized void halt() {
        halted = true;
        journal.close();
    }

    synchronized boolean halted() {
        return halted;
    }

    /**
     * Ends the execution with its final event, once: later attempts (a timeout racing a stop, the interpreter
     * unwinding after an abort) are ignored.
     */
    boolean close(
            ExecutionStatus finalStatus,
            String finalOutput,
            String finalError,
            String finalCause,
            HistoryEventType finalEvent,
            EventDetails details,
            long previousEventId) {
        ExecutionDescription description;
        synchronized (this) {
            if (status.isTerminal() || halted) {
                return false;
            }
            append(finalEvent, details, previousEventId, true, null, false);
            status = finalStatus;
            stopDate = clock.now();
            output = finalOutput;
            error = finalError;
            cause = finalCause;
            description = describe();
            journal.close();
        }
        completion.complete(description);
        return true;
    }

    synchronized long lastEventId() {
        return history.size();
    }
}
