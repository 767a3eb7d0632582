package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The task tokens of {@code .waitForTaskToken} tasks that are waiting for their callback, and the callbacks
 * ({@code SendTaskSuccess}, {@code SendTaskFailure}, {@code SendTaskHeartbeat}) that end or prolong the wait. A token
 * is valid from the moment its task starts until the task ends in any way; a callback for a token that is unknown or
 * already closed is refused with {@link StepFunctionsException.Code#TaskDoesNotExist}, as the service does.
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

        private Waiting(String token, EngineClock clock) {
            this.token = token;
            this.clock = clock;
            this.callbackArrived = clock.newGate();
            this.startedAt = clock.now();
            this.lastHeartbeat = startedAt;
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

        private synchronized void complete(Callback result) {
            if (callback == null) {
                callback = result;
                callbackArrived.open();
            }
        }
    }

    private final Map<String, Waiting> waiting = new ConcurrentHashMap<>();

    /** Opens a token for a task that starts waiting now. */
    Waiting open(EngineClock clock) {
        Waiting w = new Waiting(UUID.randomUUID() + "-" + UUID.randomUUID(), clock);
        waiting.put(w.token(), w);
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
        require(token).complete(new Callback.Success(output));
        close(token);
    }

    public void sendFailure(String token, String error, String cause) {
        require(token).complete(new Callback.Failure(error, cause));
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
