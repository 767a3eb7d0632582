package dev.interlock.store;

import dev.interlock.model.event.Event;
import dev.interlock.model.run.RunState;
import java.util.List;
import java.util.Objects;

/**
 * Changes that must agree, applied all or nothing: a run-state compare-and-swap, optionally a run-log change, and
 * the events that record them (e.g. {@code logResult}: run FAILED + run log FAILED with one more attempt + event).
 *
 * @param runLog the run-log change, or null when the transition does not touch the run log
 */
public record RunTransition(long expectedVersion, RunState next, RunLogUpdate runLog, List<Event> events) {

    public RunTransition {
        Objects.requireNonNull(next, "next");
        if (next.version() != expectedVersion + 1) {
            throw new IllegalArgumentException("run " + next.runId() + ": next version must be " + (expectedVersion + 1)
                    + ", was " + next.version());
        }
        events = List.copyOf(events);
    }

    /** A run-state swap and its events, without a run-log change. */
    public static RunTransition of(long expectedVersion, RunState next, Event... events) {
        return new RunTransition(expectedVersion, next, null, List.of(events));
    }

    /** A run-state swap, a run-log change and their events. */
    public static RunTransition of(
            long expectedVersion, RunState next, RunLogKey key, RunLogChange change, Event... events) {
        return new RunTransition(expectedVersion, next, new RunLogUpdate(key, change), List.of(events));
    }

    /** The run-log part of a transition. */
    public record RunLogUpdate(RunLogKey key, RunLogChange change) {
        public RunLogUpdate {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(change, "change");
        }
    }
}
