package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The task tokens of {@code .waitForTaskToken} tasks that are waiting for their callback, and the callbacks
 * ({@code SendTaskSuccess}, {@code SendTaskFailure}, {@code SendTaskHeartbeat}) that end or prolong the wait. A token
 * is valid from the moment its task starts until the task ends in any way; a callback for a token that is unknown or
 * already closed is refused with {@link StepFunctionsException.Code#TaskDoesNotExist}, as the service does. A journaled
 * wait is reopened under its token when an engine reads its execution back, so a token outlives a restart, as on AWS.
 */
public final class TaskTokens {

    /** How a callback ended a wait. */
    sealed interface Callback {
        record Success(JsonNode output) implements Callback {}

        record Failure(String error, String cause) implements Callback {}
    }

    /** One waiting task: its gate opens on success or failure; a heartbeat moves {@code lastHeartbeat}. */
    static final class Waiting {
        private final String token;
        private final EngineClock clock;
        private final EngineClock.Gate callbackArrived;
        private volatile Callback callback;
        private final Instant startedAt;
        private volatile Instant lastHeartbeat;
        private volatile Consumer<Callback> journal = callback -> {};

        private Waiting(String token, EngineClock clock, Instant startedAt) {
            this.token = token;
            this.clock = clock;
            this.callbackArrived = clock.newGate();
            this.startedAt = startedAt;
            this.lastHeartbeat = clock.now();
        }

        /** Where an arriving callback is written before it is accepted (an execution's journal). */
        void journalTo(Consumer<Callback> journal) {
            this.journal = journal;
        }

        Instant startedAt() {
            return startedAt;
        }

        String token() {
            return token;
        }

        EngineClock.Gate gate() {
            return callbackArrived;
        }

        Callback callback() {
            return callback;
        }

        Instant lastHeartbeat() {
            return lastHeartbeat;
        }

        private synchronized void complete(Callback result, boolean journaled) {
            if (callback == null) {
                if (!journaled) {
                    journal.accept(result);
                }
                callback = result;
                callbackArrived.open();
            }
        }
    }

    /** The journal line of a callback that reached the task waiting under {@code token}. */
    static JournalEntry.CallbackArrived toJournal(String token, Callback callback) {
        return switch (callback) {
            case Callback.Success s -> new JournalEntry.CallbackArrived(token, s.output(), null, null);
            case Callback.Failure f -> new JournalEntry.CallbackArrived(token, null, f.error(), f.cause());
        };
    }

    /** The callback a journal holds, as the waiting task receives it (null: none). */
    static Callback fromJournal(JournalEntry.CallbackArrived arrived) {
        if (arrived == null) {
            return null;
        }
        return arrived.output() != null
                ? new Callback.Success(arrived.output())
                : new Callback.Failure(arrived.error(), arrived.cause());
    }

    private final Map<String, Waiting> waiting = new ConcurrentHashMap<>();
    /**
     * Waits reopened when the engine read its executions back, until their resumed task attaches: a callback may end
     * one in between (it is accepted from the start), and the task must then find that ended wait, not a new one.
     */
    private final Map<String, Waiting> restored = new ConcurrentHashMap<>();

    /** Opens a token for a task that starts waiting now. */
    Waiting open(EngineClock clock) {
        Waiting w = new Waiting(UUID.randomUUID() + "-" + UUID.randomUUID(), clock, clock.now());
        waiting.put(w.token(), w);
        return w;
    }

    /**
     * Reopens the journaled wait under {@code token} for a resumed execution (the same one if already reopened), its
     * timeout counting from {@code openedAt}; a callback the journal holds ({@code arrived}, or null) has ended it.
     */
    Waiting reopen(String token, Instant openedAt, EngineClock clock, Callback arrived) {
        if (arrived != null) {
            Waiting ended = new Waiting(token, clock, openedAt);
            ended.complete(arrived, true);
            return ended;
        }
        Waiting kept = restored.remove(token);
        if (kept != null) {
            return kept;
        }
        return waiting.computeIfAbsent(token, t -> new Waiting(t, clock, openedAt));
    }

    /**
     * Reopens a journaled wait when the engine starts, before its execution is resumed: the token accepts its
     * callback from now on, and the resumed task attaches to this same wait (ended or not) through {@link #reopen}.
     */
    Waiting restore(String token, Instant openedAt, EngineClock clock) {
        Waiting w = reopen(token, openedAt, clock, null);
        restored.put(token, w);
        return w;
    }

    /** The task ended (callback, timeout, stop): the token no longer accepts callbacks. */
    void close(String token) {
        waiting.remove(token);
    }

    public boolean isOpen(String token) {
        return token != null && waiting.containsKey(token);
    }

    public void sendSuccess(String token, JsonNode output) {
        require(token).complete(new Callback.Success(output), false);
        close(token);
    }

    public void sendFailure(String token, String error, String cause) {
        require(token).complete(new Callback.Failure(error, cause), false);
        close(token);
    }

    public void sendHeartbeat(String token) {
        Waiting w = require(token);
        w.lastHeartbeat = w.clock.now();
    }

    private Waiting require(String token) {
        Waiting w = token == null ? null : waiting.get(token);
        if (w == null) {
            throw new StepFunctionsException(
                    StepFunctionsException.Code.TaskDoesNotExist,
                    "Task does not exist anymore (unknown or closed task token)");
        }
        return w;
    }
}
