package dev.interlock.store;

import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunState;

/** What became of a {@link RunTransition}: applied as a whole, or nothing written because the run moved on. */
public sealed interface TransitionOutcome {

    /** Everything was written; {@code runLog} is the stored run log (null when the transition had none). */
    record Applied(RunState run, RunLog runLog) implements TransitionOutcome {}

    /** The run's version was no longer the expected one (or the run does not exist); nothing was written. */
    record RunVersionConflict(String runId, long expectedVersion) implements TransitionOutcome {}

    /** Whether the transition was applied. */
    default boolean applied() {
        return this instanceof Applied;
    }
}
