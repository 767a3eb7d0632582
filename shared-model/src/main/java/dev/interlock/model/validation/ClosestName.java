package dev.interlock.model.validation;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/**
 * The known name a misspelt one most likely meant ({@code retires} → {@code retry}, {@code schedule} →
 * {@code schedules}, {@code --fiel} → {@code --file}): what every "did you mean" in documents, the CLI and the CDK
 * context says. Case is ignored; a name too far from every known one gets no suggestion rather than a wild guess.
 */
public final class ClosestName {

    private ClosestName() {}

    /** The closest of {@code known} to {@code typed}, if one is close enough; ties go to the earlier candidate. */
    public static Optional<String> among(String typed, Collection<String> known) {
        if (typed == null || typed.isBlank()) {
            return Optional.empty();
        }
        String wanted = typed.toLowerCase(Locale.ROOT);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : known) {
            String lower = candidate.toLowerCase(Locale.ROOT);
            int distance = distance(wanted, lower);
            if (distance < bestDistance && closeEnough(wanted, lower, distance)) {
                best = candidate;
                bestDistance = distance;
            }
        }
        return Optional.ofNullable(best);
    }

    /**
     * The closest of {@code known} at most {@code maxEdits} edits away: for names where a wrong guess costs more than
     * no guess (a CDK context key that might be the team's own).
     */
    public static Optional<String> within(String typed, Collection<String> known, int maxEdits) {
        return among(typed, known)
                .filter(name -> distance(typed.toLowerCase(Locale.ROOT), name.toLowerCase(Locale.ROOT)) <= maxEdits);
    }

    /** {@code " did you mean 'x'?"} style tail for a message, or empty. */
    public static String hint(String typed, Collection<String> known) {
        return among(typed, known).map(name -> "; did you mean '" + name + "'?").orElse("");
    }

    /**
     * About two in five characters may differ (one in any short name); a name that merely stops early or runs on
     * ({@code evaluationInterval} for {@code evaluationIntervalSeconds}) is close too.
     */
    private static boolean closeEnough(String typed, String known, int distance) {
        int longer = Math.max(typed.length(), known.length());
        if (distance <= Math.max(1, Math.round(longer * 0.4f))) {
            return true;
        }
        int shorter = Math.min(typed.length(), known.length());
        return shorter >= 4 && (known.startsWith(typed) || typed.startsWith(known));
    }

    /** Optimal string alignment distance: insertions, deletions, substitutions and adjacent transpositions. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                int best = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    best = Math.min(best, d[i - 2][j - 2] + 1);
                }
                d[i][j] = best;
            }
        }
        return d[a.length()][b.length()];
    }
}
