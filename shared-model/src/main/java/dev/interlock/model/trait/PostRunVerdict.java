package dev.interlock.model.trait;

import dev.interlock.model.json.Frozen;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a pipeline's post-run checks ({@code postRun}, docs/post-run-checks.md) say about a job that reported success:
 * the day may be COMPLETED only when every required check passed. A required check that failed or whose evaluator
 * errored fails the run ({@code VERIFICATION}); an optional one is recorded and shown, never failing it.
 *
 * @param verdicts every check's verdict, in {@code postRun} order
 */
public record PostRunVerdict(List<TraitVerdict> verdicts) {

    /** Wire status of a POST_RUN_CHECKED event whose required checks all passed. */
    public static final String PASSED = "PASSED";
    /** Wire status of a POST_RUN_CHECKED event with a required check that did not pass. */
    public static final String FAILED = "FAILED";

    /** The keys of {@link #details()}: the checks, and each check's name, status, required and reason. */
    public static final String CHECKS = "checks";

    public static final String NAME = "name";
    public static final String STATUS = "status";
    public static final String REQUIRED = "required";
    public static final String REASON = "reason";

    public PostRunVerdict {
        verdicts = Frozen.list(verdicts);
    }

    /** The verdict of a pipeline without post-run checks: nothing to check, so passed. */
    public static final PostRunVerdict NONE = new PostRunVerdict(List.of());

    /** Whether every required check passed (true when there are none). */
    public boolean passed() {
        return failing().isEmpty();
    }

    /** The required checks that did not pass, in order. */
    public List<TraitVerdict> failing() {
        return verdicts.stream()
                .filter(v -> v.required() && v.status() != TraitStatus.PASS)
                .toList();
    }

    /** {@link #PASSED} or {@link #FAILED}. */
    public String status() {
        return passed() ? PASSED : FAILED;
    }

    /**
     * The failure message naming every failing required check and why ({@code post-run check rows-written failed:
     * sensor x field 'rows' is 0, not gt 0}); for a passed verdict, a short summary.
     */
    public String message() {
        if (passed()) {
            return verdicts.size() + " post-run check" + (verdicts.size() == 1 ? "" : "s") + " passed";
        }
        List<String> parts = new ArrayList<>();
        for (TraitVerdict v : failing()) {
            String how = v.status() == TraitStatus.ERROR ? "errored" : "failed";
            parts.add("post-run check " + v.traitType() + " " + how + (v.reason() == null ? "" : ": " + v.reason()));
        }
        return String.join("; ", parts);
    }

    /** Event details: every check with its status, whether it is required, and its reason when it did not pass. */
    public Map<String, Object> details() {
        List<Map<String, Object>> checks = new ArrayList<>();
        for (TraitVerdict v : verdicts) {
            Map<String, Object> check = new LinkedHashMap<>();
            check.put(NAME, v.traitType());
            check.put(STATUS, v.status() == null ? "UNKNOWN" : v.status().wireName());
            check.put(REQUIRED, v.required());
            if (v.reason() != null) {
                check.put(REASON, v.reason());
            }
            if (v.value() != null) {
                check.put("value", v.value());
            }
            checks.add(check);
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put(CHECKS, checks);
        details.put("failing", failing().stream().map(TraitVerdict::traitType).toList());
        return details;
    }
}
