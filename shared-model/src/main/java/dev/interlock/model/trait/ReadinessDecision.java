package dev.interlock.model.trait;

import java.time.Instant;
import java.util.List;

/**
 * What one evaluation round decides once the readiness rule's deadline fallback is applied ({@link Readiness#decide}):
 * ready, proceed without the traits that did not pass, or keep waiting.
 *
 * @param readiness        the round judged by the rule alone ({@link Readiness#of(List, dev.interlock.model.pipeline.ReadinessRule)})
 * @param outcome          what the round decides
 * @param proceedAt        when the rule's fallback opens on this day; null when the rule has none
 * @param proceededWithout the traits the day proceeds without ({@link Outcome#PROCEED_DEGRADED} only; else empty)
 * @param essentialMissing the essential traits that did not pass, which keep a day past {@code proceedAt} waiting
 */
public record ReadinessDecision(
        Readiness readiness,
        Outcome outcome,
        Instant proceedAt,
        List<String> proceededWithout,
        List<String> essentialMissing) {

    /** The three answers of a round. */
    public enum Outcome {
        /** The rule holds: every trait it asks for passed. */
        READY,
        /** The rule does not hold, but {@code proceedAt} has passed and every essential trait passed. */
        PROCEED_DEGRADED,
        /** Wait: the rule does not hold and its fallback (if any) is not open or its essential traits did not pass. */
        NOT_READY
    }

    public ReadinessDecision {
        proceededWithout = List.copyOf(proceededWithout);
        essentialMissing = List.copyOf(essentialMissing);
    }

    /** Whether the day goes on to its job this round (fully ready or degraded). */
    public boolean proceeds() {
        return outcome != Outcome.NOT_READY;
    }

    /** Whether the rule's fallback has opened: {@code proceedAt} is set and not after the round. */
    public boolean fallbackOpen(Instant now) {
        return proceedAt != null && !now.isBefore(proceedAt);
    }
}
