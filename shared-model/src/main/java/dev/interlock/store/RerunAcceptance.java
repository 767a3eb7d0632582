package dev.interlock.store;

/**
 * What became of {@link Provider#acceptRerun}: everything written, or nothing written and why. Refusals are outcomes,
 * not exceptions, so a caller can answer each with its own message.
 */
public sealed interface RerunAcceptance {

    /** The rerun (item and pipeline copy), its replay marker and its event were written, and the budget counted it. */
    record Accepted() implements RerunAcceptance {}

    /**
     * The (pipeline, date, schedule) already has {@code used} reruns, not fewer than the budget; nothing was written.
     * {@code used} is the budget counter as the refused write saw it.
     */
    record BudgetSpent(int used) implements RerunAcceptance {}

    /** A marker with the replay marker's key exists already (expired or not); nothing was written. */
    record MarkerExists() implements RerunAcceptance {}

    /** Whether the rerun was accepted. */
    default boolean accepted() {
        return this instanceof Accepted;
    }
}
