package dev.interlock.statemachine.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Wall-clock time running {@code scale} times faster, for the local runtime: with scale 60 a one-minute Wait
 * takes one real second. Engine time starts at the real time of construction (or a given origin) and then runs
 * ahead of it.
 * Everything is scaled, including the time a task takes, so a Task TimeoutSeconds is {@code scale} times
 * shorter in real terms.
 */
public final class ScaledRealClock implements EngineClock {

    private final double scale;
    private final Instant origin;
    private final long originNanos;

    public ScaledRealClock(double scale) {
        this(scale, null);
    }

    /**
     * Engine time that starts at {@code origin} (null: the real time of construction): where a data directory's clock
     * stood, or a chosen time of day for a scenario, e.g. a registration at 18:07.
     */
    public ScaledRealClock(double scale, Instant origin) {
        if (!(scale > 0) || Double.isInfinite(scale)) {
            throw new IllegalArgumentException("time scale must be a positive number, got " + scale);
        }
        this.scale = scale;
        this.origin = origin == null ? Instant.now() : origin;
        this.originNanos = System.nanoTime();
    }

    /** Real time, unscaled. */
    public static ScaledRealClock realTime() {
        return new ScaledRealClock(1.0);
    }

    public double scale() {
        return scale;
    }

    @Override
    public Instant now() {
        return origin.plusNanos((long) ((System.nanoTime() - originNanos) * scale));
    }

    @Override
    public Gate newGate() {
        return new RealGate();
    }

    @Override
    public void start(String threadName, Runnable body) {
        Thread.ofVirtual().name(threadName).start(body);
    }

    private final class RealGate implements Gate {
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition opened = lock.newCondition();
        private boolean open;

        @Override
        public void open() {
            lock.lock();
            try {
                open = true;
                opened.signalAll();
            } finally {
                lock.unlock();
            }
        }

        @Override
        public boolean isOpen() {
            lock.lock();
            try {
                return open;
            } finally {
                lock.unlock();
            }
        }

        @Override
        public boolean await(Instant deadline) throws InterruptedException {
            lock.lock();
            try {
                while (!open) {
                    if (deadline == null) {
                        opened.await();
                        continue;
                    }
                    long engineNanos = Duration.between(now(), deadline).toNanos();
                    if (engineNanos <= 0) {
                        return false;
                    }
                    opened.await(Math.max(1, (long) (engineNanos / scale)), TimeUnit.NANOSECONDS);
                }
                return true;
            } finally {
                lock.unlock();
            }
        }
    }
}
