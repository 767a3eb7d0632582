package dev.interlock.infra;

import java.util.ArrayList;
import java.util.List;

/**
 * A regular expression matching exactly the decimal numbers greater than a limit, for a WAF rule on the
 * {@code Content-Length} header: WAF compares strings, not numbers, and inspects at most 64 KB of a body, so a
 * numeric guard on the declared length is the way to refuse bodies above a larger limit before Lambda runs.
 * Written without groups (WAF's regex engine refuses capturing subexpressions): one anchored alternative per digit.
 */
final class ContentLengthPattern {

    private ContentLengthPattern() {}

    /** Matches the decimal representations (leading zeros allowed) of every integer greater than {@code limit}. */
    static String greaterThan(long limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("limit must not be negative: " + limit);
        }
        String digits = Long.toString(limit);
        List<String> alternatives = new ArrayList<>();
        // Any number with more digits than the limit.
        alternatives.add("^0*[1-9]\\d{" + digits.length() + ",}$");
        // Same length: equal up to position i, greater at i, anything after.
        for (int i = 0; i < digits.length(); i++) {
            int d = digits.charAt(i) - '0';
            if (d == 9) {
                continue;
            }
            int rest = digits.length() - i - 1;
            String lead = i == 0 ? "^0*" : "^0*" + digits.substring(0, i);
            String greater = d == 8 ? "9" : "[" + (d + 1) + "-9]";
            String tail = rest == 0 ? "" : rest == 1 ? "\\d" : "\\d{" + rest + "}";
            alternatives.add(lead + greater + tail + "$");
        }
        return String.join("|", alternatives);
    }
}
