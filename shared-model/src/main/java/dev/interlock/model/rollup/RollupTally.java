package dev.interlock.model.rollup;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How many of a rollup's periods are in (docs/pipeline-reference.md, "Rollups"): what a rollup trait's verdict carries
 * as {@code value.rollup} — {@code periods}, {@code in}, {@code missing} (the first {@link #MISSING_SHOWN}),
 * {@code needed} and {@code enough} — and what the readiness decision, {@code status} and {@code why} read back.
 *
 * @param periods how many periods the rollup covers on its date
 * @param in      how many of them are in
 * @param missing the periods not in, in period order (at most {@link #MISSING_SHOWN} kept)
 * @param needed  how many must be in for the rollup to do ({@code minCount}, else every period)
 */
public record RollupTally(int periods, int in, List<String> missing, int needed) {

    /** The value key a rollup verdict carries its tally under. */
    public static final String VALUE_KEY = "rollup";
    /** How many missing periods a tally names (an hourly day has 24; a per-minute one 1,440). */
    public static final int MISSING_SHOWN = 48;

    public RollupTally {
        missing = List.copyOf(missing.size() > MISSING_SHOWN ? missing.subList(0, MISSING_SHOWN) : missing);
    }

    /** Counts {@code periods}, of which those in {@code arrived} are in. */
    public static RollupTally count(List<String> periods, java.util.Collection<String> arrived, RollupConfig config) {
        List<String> missing = new ArrayList<>();
        int in = 0;
        for (String period : periods) {
            if (arrived.contains(period)) {
                in++;
            } else {
                missing.add(period);
            }
        }
        return new RollupTally(periods.size(), in, missing, config.needed(periods.size()));
    }

    /** Whether every period is in. A rollup with no period on its date (the upstream has no window) is not. */
    public boolean complete() {
        return periods > 0 && in == periods;
    }

    /** Whether enough periods are in for the rollup to do ({@code minCount}), though perhaps not all. */
    public boolean enough() {
        return periods > 0 && in >= needed;
    }

    /** The tally in a verdict's value. */
    public Map<String, Object> toValue() {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("periods", periods);
        value.put("in", in);
        value.put("missing", missing);
        value.put("needed", needed);
        value.put("enough", enough());
        return value;
    }

    /** The tally a verdict's value carries, if it is a rollup's. */
    public static Optional<RollupTally> fromValue(Map<String, Object> verdictValue) {
        if (verdictValue == null || !(verdictValue.get(VALUE_KEY) instanceof Map<?, ?> tally)) {
            return Optional.empty();
        }
        if (!(tally.get("periods") instanceof Number periods)
                || !(tally.get("in") instanceof Number in)
                || !(tally.get("needed") instanceof Number needed)) {
            return Optional.empty();
        }
        List<String> missing = new ArrayList<>();
        if (tally.get("missing") instanceof List<?> list) {
            list.forEach(item -> missing.add(String.valueOf(item)));
        }
        return Optional.of(new RollupTally(periods.intValue(), in.intValue(), missing, needed.intValue()));
    }

    /** "23 of 24 in; missing hourly.0500" — the words status, why and the verdict's reason use. */
    public String summary() {
        if (periods == 0) {
            return "no period on this date";
        }
        StringBuilder text =
                new StringBuilder().append(in).append(" of ").append(periods).append(" in");
        if (!missing.isEmpty()) {
            text.append("; missing ").append(String.join(", ", missing));
            if (periods - in > missing.size()) {
                text.append(" and ").append(periods - in - missing.size()).append(" more");
            }
        }
        if (needed < periods) {
            text.append(" (").append(needed).append(" will do)");
        }
        return text.toString();
    }

    /** A degraded start's words for a rollup that did with fewer than all its periods: {@code trait (missing …)}. */
    public String without(String traitType) {
        return traitType + " (" + (periods - in) + " of " + periods + " missing"
                + (missing.isEmpty() ? "" : ": " + String.join(", ", missing)) + ")";
    }
}
