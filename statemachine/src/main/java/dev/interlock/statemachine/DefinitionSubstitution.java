package dev.interlock.statemachine;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Replaces {@code ${Name}} placeholders in ASL text, as CDK's definitionSubstitutions do, and reports the
 * placeholders that had no value and the values that no placeholder used.
 */
public final class DefinitionSubstitution {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Za-z0-9_]+)}");

    private DefinitionSubstitution() {}

    /** The substituted text plus what did not line up. */
    public record Result(String text, Set<String> missing, Set<String> unused) {

        public Result {
            missing = Set.copyOf(missing);
            unused = Set.copyOf(unused);
        }

        /** The text, or an exception listing every placeholder without a value. */
        public String requireComplete() {
            if (!missing.isEmpty()) {
                throw new IllegalArgumentException("No value for ASL placeholder(s): "
                        + missing.stream().sorted().toList());
            }
            return text;
        }
    }

    /** The names of the {@code ${Name}} placeholders {@code text} uses, in the order of their first use. */
    public static Set<String> placeholders(String text) {
        Set<String> names = new LinkedHashSet<>();
        Matcher m = PLACEHOLDER.matcher(text);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    /** Substitutes every {@code ${Name}} whose name is in {@code values}; others are left as they are. */
    public static Result apply(String text, Map<String, String> values) {
        Set<String> missing = new LinkedHashSet<>();
        Set<String> used = new LinkedHashSet<>();
        Matcher m = PLACEHOLDER.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String name = m.group(1);
            String value = values.get(name);
            if (value == null) {
                missing.add(name);
                m.appendReplacement(out, Matcher.quoteReplacement(m.group()));
            } else {
                used.add(name);
                m.appendReplacement(out, Matcher.quoteReplacement(value));
            }
        }
        m.appendTail(out);
        Set<String> unused = new LinkedHashSet<>(values.keySet());
        unused.removeAll(used);
        return new Result(out.toString(), missing, unused);
    }
}
