package dev.interlock.local.jobs;

import dev.interlock.local.aws.AwsJson;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test hook of the job fakes, off unless a test turns it on: it holds the start calls of one job (a Glue job name, an
 * EMR cluster id, an EMR Serverless application id, a Step Functions state machine ARN) until they are released, so a
 * test can stop the runtime while a trigger's start call is in flight — the crash window between a trigger's claim
 * and the record of its job. Where the call is held decides what the job system knows when the process goes down:
 *
 * <ul>
 *   <li>{@link Point#AFTER_ACCEPTING}: the job run is recorded (journaled, running) and only the answer is held;
 *       released, the call answers as it would have. The process died after the job system accepted the start.
 *   <li>{@link Point#BEFORE_ACCEPTING}: nothing is recorded yet; released, the call is refused and records nothing.
 *       The process died before its start reached the job system.
 * </ul>
 *
 * A held call ignores the interrupt of a stopping runtime (its answer is lost with the server either way) and waits
 * for {@link #release}, so a test decides when the dead trigger gets its answer: after the runtime's stores are gone.
 */
public final class StartHolds {

    /** Where a start call is held. */
    public enum Point {
        BEFORE_ACCEPTING,
        AFTER_ACCEPTING
    }

    private record Hold(Point point, CountDownLatch released, AtomicInteger waiting) {}

    private final Map<String, Hold> holds = new ConcurrentHashMap<>();

    /** Holds every start call of {@code job} at {@code point} from now until {@link #release}. */
    public void hold(String job, Point point) {
        holds.put(job, new Hold(point, new CountDownLatch(1), new AtomicInteger()));
    }

    /** Lets the held start calls of {@code job} go on (accepted ones answer, unaccepted ones are refused). */
    public void release(String job) {
        Hold hold = holds.remove(job);
        if (hold != null) {
            hold.released().countDown();
        }
    }

    /** How many start calls of {@code job} are held right now. */
    public int waiting(String job) {
        Hold hold = holds.get(job);
        return hold == null ? 0 : hold.waiting().get();
    }

    /** Called by a fake before it records anything of a start of {@code job}: a held call is refused when released. */
    void beforeAccepting(String job) {
        if (await(job, Point.BEFORE_ACCEPTING)) {
            throw new AwsJson.Failure(
                    503,
                    "ServiceUnavailableException",
                    "the start of " + job + " was held before the job system accepted it and then dropped");
        }
    }

    /** Called by a fake once a start of {@code job} is recorded, before it answers. */
    void afterAccepting(String job) {
        await(job, Point.AFTER_ACCEPTING);
    }

    /** Waits while {@code job} is held at {@code point}; true when it was. */
    private boolean await(String job, Point point) {
        Hold hold = holds.get(job);
        if (hold == null || hold.point() != point) {
            return false;
        }
        hold.waiting().incrementAndGet();
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    hold.released().await();
                    return true;
                } catch (InterruptedException e) {
                    interrupted = true; // the runtime is stopping: the call stays in flight until released
                }
            }
        } finally {
            hold.waiting().decrementAndGet();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
