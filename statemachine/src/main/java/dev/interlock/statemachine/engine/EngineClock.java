package dev.interlock.statemachine.engine;

import java.time.Instant;

/**
 * Time and concurrency for the engine. Every thread that runs states is started here, and every wait goes
 * through a {@link Gate}, so a virtual implementation can tell when all work is waiting and jump ahead.
 */
public interface EngineClock {

    Instant now();

    /** A new one-shot gate. */
    Gate newGate();

    /** Starts {@code body} on its own (virtual) thread as a participant of this clock. */
    void start(String threadName, Runnable body);

    /** A one-shot latch that participants wait on, optionally until a deadline on this clock. */
    interface Gate {

        /** Opens the gate, releasing current and future waiters; opening twice is harmless. */
        void open();

        boolean isOpen();

        /**
         * Waits until the gate opens or {@code deadline} (null = none) passes on this clock.
         *
         * @return true if the gate opened, false if the deadline passed first
         */
        boolean await(Instant deadline) throws InterruptedException;
    }
}
