package dev.interlock.store;

import dev.interlock.model.run.RunLog;
import java.util.Optional;

/**
 * A change to a run log, applied by the store to the current entry in an optimistic read-modify-write: when another
 * writer got in between, the store reads again and applies the change again, so the change must be a pure function
 * of the current entry. Returning {@code current} unchanged writes nothing.
 */
@FunctionalInterface
public interface RunLogChange {

    /** The new entry given the current one (empty when there is none yet). */
    RunLog apply(Optional<RunLog> current);

    /**
     * Applies {@code change} and refuses a result that would clobber the ledger: a different key, a smaller
     * {@code attemptNumber}, or a {@code retryHistory} that does not start with the current history. This is the
     * rule both Providers enforce, so a careless writer (the Go original's trigger) fails loudly instead of
     * silently resetting attempts.
     */
    static RunLog applyPreserving(RunLogKey key, Optional<RunLog> current, RunLogChange change) {
        RunLog next = change.apply(current);
        if (next == null) {
            throw new IllegalStateException("a run log change returned null for " + key);
        }
        if (!key.matches(next)) {
            throw new IllegalStateException(
                    "a run log change for " + key + " returned the entry of " + RunLogKey.of(next));
        }
        if (current.isPresent()) {
            RunLog before = current.get();
            if (next.attemptNumber() < before.attemptNumber()) {
                throw new IllegalStateException("run log " + key + ": attemptNumber would go back from "
                        + before.attemptNumber() + " to " + next.attemptNumber());
            }
            if (next.retryHistory().size() < before.retryHistory().size()
                    || !next.retryHistory()
                            .subList(0, before.retryHistory().size())
                            .equals(before.retryHistory())) {
                throw new IllegalStateException("run log " + key + ": retryHistory would lose or rewrite entries");
            }
        }
        return next;
    }
}
