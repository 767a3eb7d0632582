package dev.interlock.statemachine.engine;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Deterministic virtual time for tests. Participants take turns (one runs at a time, in FIFO order); when all of
 * them wait, time jumps to the earliest deadline. A one-hour Wait therefore completes at once and
 * {@code $$.State.EnteredTime} moves by exactly one hour. Task resources must not block on other executions
 * (nothing else can run while they hold the turn); they may wait through {@link TaskInvocation#clock()}.
 * Work started from a non-participant thread (a test) begins at the current virtual time; {@link #freeze()}
 * stops time from moving while a test starts several executions or inspects running ones.
 */
public final class VirtualClock implements EngineClock {

    private final ReentrantLock lock = new ReentrantLock();
    private final Deque<Participant> runnable = new ArrayDeque<>();
    private final PriorityQueue<Waiter> timers =
            new PriorityQueue<>(Comparator.comparing(Waiter::deadline).thenComparingLong(Waiter::sequence));
    private final ThreadLocal<Participant> current = new ThreadLocal<>();
    private Instant now;
    private Participant holder;
    private long sequence;
    private int freezes;

    public VirtualClock(Instant start) {
        this.now = start;
    }

    @Override
    public Instant now() {
        lock.lock();
        try {
            return now;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Gate newGate() {
        return new VirtualGate();
    }

    /** Stops virtual time from advancing until the returned handle is closed; participants still run. */
    public Frozen freeze() {
        lock.lock();
        try {
            freezes++;
        } finally {
            lock.unlock();
        }
        return new Frozen();
    }

    /** An open {@link #freeze()}; closing it lets time move again. */
    public final class Frozen implements AutoCloseable {
        private boolean closed;

        private Frozen() {}

        @Override
        public void close() {
            lock.lock();
            try {
                if (!closed) {
                    closed = true;
                    freezes--;
                    dispatch();
                }
            } finally {
                lock.unlock();
            }
        }
    }

    @Override
    public void start(String threadName, Runnable body) {
        Participant participant = new Participant(lock.newCondition());
        lock.lock();
        try {
            runnable.addLast(participant);
            dispatch();
        } finally {
            lock.unlock();
        }
        Thread.ofVirtual().name(threadName).start(() -> {
            current.set(participant);
            lock.lock();
            try {
                awaitTurn(participant);
            } finally {
                lock.unlock();
            }
            try {
                body.run();
            } finally {
                lock.lock();
                try {
                    holder = null;
                    dispatch();
                } finally {
                    lock.unlock();
                }
            }
        });
    }

    /** Hands the turn to the next runnable participant, advancing time to the next deadline if none is. */
    private void dispatch() {
        while (holder == null) {
            Participant next = runnable.pollFirst();
            if (next != null) {
                holder = next;
                next.turn().signal();
                return;
            }
            Waiter due = freezes > 0 ? null : timers.poll();
            if (due == null) {
                return;
            }
            if (due.released) {
                continue;
            }
            if (due.deadline().isAfter(now)) {
                now = due.deadline();
            }
            due.released = true;
            due.timedOut = true;
            runnable.addLast(due.participant());
        }
    }

    private void awaitTurn(Participant participant) {
        while (holder != participant) {
            participant.turn().awaitUninterruptibly();
        }
    }

    private record Participant(Condition turn) {}

    private static final class Waiter {
        private final Participant participant;
        private final Instant deadline;
        private final long sequence;
        private boolean released;
        private boolean timedOut;

        Waiter(Participant participant, Instant deadline, long sequence) {
            this.participant = participant;
            this.deadline = deadline;
            this.sequence = sequence;
        }

        Participant participant() {
            return participant;
        }

        Instant deadline() {
            return deadline;
        }

        long sequence() {
            return sequence;
        }
    }

    private final class VirtualGate implements Gate {
        private final List<Waiter> waiters = new ArrayList<>();
        private boolean opened;

        @Override
        public void open() {
            lock.lock();
            try {
                if (opened) {
                    return;
                }
                opened = true;
                for (Waiter w : waiters) {
                    if (!w.released) {
                        w.released = true;
                        timers.remove(w);
                        runnable.addLast(w.participant());
                    }
                }
                waiters.clear();
                dispatch();
            } finally {
                lock.unlock();
            }
        }

        @Override
        public boolean isOpen() {
            lock.lock();
            try {
                return opened;
            } finally {
                lock.unlock();
            }
        }

        @Override
        public boolean await(Instant deadline) {
            lock.lock();
            try {
                if (opened) {
                    return true;
                }
                if (deadline != null && !deadline.isAfter(now)) {
                    return false;
                }
                Participant self = current.get();
                if (self == null || holder != self) {
                    throw new IllegalStateException("Only threads started by this VirtualClock may wait on its gates");
                }
                Waiter waiter = new Waiter(self, deadline == null ? Instant.MAX : deadline, sequence++);
                waiters.add(waiter);
                if (deadline != null) {
                    timers.add(waiter);
                }
                holder = null;
                dispatch();
                awaitTurn(self);
                return !waiter.timedOut;
            } finally {
                lock.unlock();
            }
        }
    }
}
