package dev.interlock.model.trait;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;

/**
 * {@code quietPeriod}: a ready round triggers only once the data its traits read has not changed for that long, so a
 * burst of sensor writes or upstream completions ends in one trigger on settled data, not one per arrival. When the
 * data last changed is what the traits' verdicts report: a sensor's {@code updatedAt} (the sensor builtins), an
 * upstream's {@code completedAt} ({@code builtin:upstream-run-log}); an HTTP or Lambda evaluator may report either in its
 * value too. A round whose traits report neither is never held back.
 */
public final class QuietPeriod {

    /** The value keys that say when the data a verdict read last changed. */
    static final List<String> CHANGED_AT = List.of("updatedAt", "completedAt");

    private QuietPeriod() {}

    /** The latest change the verdicts report, and which trait read it. */
    public record Change(String traitType, Instant at) {}

    /** The latest change any verdict reports; empty when none reports one. */
    public static Optional<Change> lastChange(List<TraitVerdict> results) {
        Change latest = null;
        for (TraitVerdict verdict : results) {
            if (verdict.value() == null) {
                continue;
            }
            for (String key : CHANGED_AT) {
                if (verdict.value().get(key) instanceof String text) {
                    Instant at;
                    try {
                        at = Instant.parse(text.trim());
                    } catch (DateTimeParseException unreadable) {
                        continue; // an evaluator's own field of another shape says nothing about change
                    }
                    if (latest == null || at.isAfter(latest.at())) {
                        latest = new Change(verdict.type(), at);
                    }
                }
            }
        }
        return Optional.ofNullable(latest);
    }

    /**
     * Until when a round at {@code now} is held back: the last change plus {@code quiet}, if that is after {@code now};
     * empty when the data has been quiet long enough (or {@code quiet} is null or zero, or nothing reports a change).
     */
    public static Optional<Instant> holdsUntil(List<TraitVerdict> results, Duration quiet, Instant now) {
        if (quiet == null || quiet.isZero() || quiet.isNegative()) {
            return Optional.empty();
        }
        return lastChange(results).map(c -> c.at().plus(quiet)).filter(now::isBefore);
    }
}
