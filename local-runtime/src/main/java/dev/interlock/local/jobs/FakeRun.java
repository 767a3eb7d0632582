package dev.interlock.local.jobs;

import dev.interlock.statemachine.engine.EngineClock;
import java.time.Instant;
import java.util.function.Consumer;

/**
 * One run of a job fake: it starts when created and ends {@code fake.duration()} later on the engine clock with the
 * fake's outcome, unless it is stopped first. Its phase is a function of the clock, so a status read right at the end
 * agrees with the event published then.
 */
final class FakeRun {

    /** Where a run is; each service names these its own way. */
    enum Phase {
        RUNNING,
        SUCCEEDED,
        FAILED,
        STOPPED
    }

    private final String id;
    private final FakeJob fake;
    private final Instant startedAt;
    private final Instant endsAt;
    private final EngineClock.Gate stop;
    private Instant stoppedAt;

    private FakeRun(String id, FakeJob fake, Instant startedAt, EngineClock.Gate stop) {
        this.id = id;
        this.fake = fake;
        this.startedAt = startedAt;
        this.endsAt = startedAt.plus(fake.duration());
        this.stop = stop;
    }

    /** A journaled run read back after a restart, as it stood (stopped, if it was). */
    static FakeRun restore(EngineClock clock, FakeRunJournal.Restored restored) {
        FakeRun run = new FakeRun(restored.id(), restored.fake(), restored.startedAt(), clock.newGate());
        if (restored.stoppedAt() != null) {
            run.stoppedAt = restored.stoppedAt();
            run.stop.open();
        }
        return run;
    }

    /** A run that starts now on {@code clock}; {@link #begin} makes it end by itself. */
    static FakeRun create(EngineClock clock, String id, FakeJob fake) {
        return new FakeRun(id, fake, clock.now(), clock.newGate());
    }

    /**
     * Lets the run end by itself: {@code ended} is called once, on the clock's own thread, when it does (not when it is
     * stopped). Called after the caller recorded the run, so {@code ended} always finds it.
     */
    void begin(EngineClock clock, Consumer<FakeRun> ended) {
        clock.start("job-fake-" + id, () -> {
            try {
                if (!stop.await(endsAt)) {
                    ended.accept(this);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                System.err.println("job fake " + id + ": publishing its end failed: " + e);
            }
        });
    }

    String id() {
        return id;
    }

    FakeJob fake() {
        return fake;
    }

    Instant startedAt() {
        return startedAt;
    }

    /** When the run ended or will end (stopped: when it was stopped). */
    synchronized Instant endsAt() {
        return stoppedAt != null ? stoppedAt : endsAt;
    }

    synchronized Phase phase(Instant now) {
        if (stoppedAt != null) {
            return Phase.STOPPED;
        }
        if (now.isBefore(endsAt)) {
            return Phase.RUNNING;
        }
        return fake.outcome() == FakeJob.Outcome.SUCCEEDED ? Phase.SUCCEEDED : Phase.FAILED;
    }

    /** Stops the run if it is still running at {@code now}; false when it had ended already. */
    synchronized boolean stop(Instant now) {
        if (phase(now) != Phase.RUNNING) {
            return false;
        }
        stoppedAt = now;
        stop.open();
        return true;
    }

    /** Whether the run has ended (by itself or stopped) at {@code now}. */
    boolean ended(Instant now) {
        return phase(now) != Phase.RUNNING;
    }

    /** The failure message of a failed run. */
    String failureMessage() {
        return "the job fake failed as " + FakeJob.OUTCOME_KEY + " FAILED asked";
    }
}
