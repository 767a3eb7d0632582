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

/** A handle on one execution of a {@link StateMachine}: its description, its history, and its completion. */
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
    private ExecutionStatus status = ExecutionStatus.RUNNING;
    private Instant stopDate;
    private String output;
    private String error;
    private String cause;

    Execution(String executionArn, String stateMachineArn, String name, JsonNode input, EngineClock clock) {
        this.executionArn = executionArn;
        this.stateMachineArn = stateMachineArn;
        this.name = name;
        this.input = input;
        this.clock = clock;
        this.startDate = clock.now();
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
        return new ExecutionDescription(executionArn, stateMachineArn, name, status, startDate, stopDate,
                input.toString(), output, error, cause);
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

    /** Appends an event unless the execution has already ended; returns the new event's id. */
    synchronized long emit(HistoryEventType type, EventDetails details, long previousEventId) {
        if (status.isTerminal()) {
            return previousEventId;
        }
        return append(type, details, previousEventId);
    }

    private long append(HistoryEventType type, EventDetails details, long previousEventId) {
        long id = history.size() + 1L;
        history.add(new HistoryEvent(id, previousEventId, clock.now(), type, details));
        return id;
    }

    /**
     * Ends the execution with its final event, once: later attempts (a timeout racing a stop, the interpreter
     * unwinding after an abort) are ignored.
     */
    boolean close(ExecutionStatus finalStatus, String finalOutput, String finalError, String finalCause,
            HistoryEventType finalEvent, EventDetails details, long previousEventId) {
        ExecutionDescription description;
        synchronized (this) {
            if (status.isTerminal()) {
                return false;
            }
            append(finalEvent, details, previousEventId);
            status = finalStatus;
            stopDate = clock.now();
            output = finalOutput;
            error = finalError;
            cause = finalCause;
            description = describe();
        }
        completion.complete(description);
        return true;
    }

    synchronized long lastEventId() {
        return history.size();
    }
}
