package dev.interlock.statemachine.engine;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Stops a running graph: the execution (abort, timeout), a sibling branch's failure, or a task timeout. Waits
 * register their gate here so cancelling wakes them at once; children are cancelled with their parent.
 */
final class Cancellation {

    /** Why work was cancelled; SHUTDOWN: the engine stops with its process and the execution is left to resume. */
    enum Reason {
        ABORTED,
        TIMED_OUT,
        SIBLING_FAILED,
        TASK_TIMED_OUT,
        SHUTDOWN
    }

    /** Thrown out of the interpreter when its cancellation fires. */
    static final class Cancelled extends RuntimeException {
        private final Reason reason;

        Cancelled(Reason reason) {
            super("cancelled: " + reason, null, false, false);
            this.reason = reason;
        }

        Reason reason() {
            return reason;
        }
    }

    private final Cancellation parent;
    private final List<Cancellation> children = new ArrayList<>();
    private final Set<EngineClock.Gate> gates = new HashSet<>();
    private Reason reason;

    Cancellation() {
        this(null);
    }

    private Cancellation(Cancellation parent) {
        this.parent = parent;
    }

    synchronized Cancellation child() {
        Cancellation child = new Cancellation(this);
        if (reason != null) {
            child.cancel(reason);
        } else {
            children.add(child);
        }
        return child;
    }

    /** Forgets a finished child so a long execution (a polling loop) does not accumulate them. */
    void detach() {
        if (parent != null) {
            synchronized (parent) {
                parent.children.remove(this);
            }
        }
    }

    void cancel(Reason why) {
        List<EngineClock.Gate> toOpen;
        List<Cancellation> toCancel;
        synchronized (this) {
            if (reason != null) {
                return;
            }
            reason = why;
            toOpen = List.copyOf(gates);
            toCancel = List.copyOf(children);
        }
        toOpen.forEach(EngineClock.Gate::open);
        toCancel.forEach(c -> c.cancel(why));
    }

    synchronized Reason reason() {
        return reason;
    }

    void throwIfCancelled() {
        Reason why = reason();
        if (why != null) {
            throw new Cancelled(why);
        }
    }

    /** Waits on {@code gate} until it opens, the deadline passes or this is cancelled (then throws Cancelled). */
    boolean await(EngineClock.Gate gate, Instant deadline) {
        synchronized (this) {
            if (reason == null) {
                gates.add(gate);
            }
        }
        try {
            throwIfCancelled();
            return gate.await(deadline);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cancel(Reason.ABORTED);
            throw new Cancelled(Reason.ABORTED);
        } finally {
            synchronized (this) {
                gates.remove(gate);
            }
            throwIfCancelled();
        }
    }

    /** Waits until {@code until} on the clock, or throws Cancelled. */
    void sleepUntil(EngineClock clock, Instant until) {
        await(clock.newGate(), until);
    }
}
