package dev.interlock.deps.outbound;

import dev.interlock.deps.Environment;

import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Expands {@code $VAR} and {@code ${VAR}} in trigger headers and bodies. Only {@code INTERLOCK_*} variables are
 * read, so a pipeline config can never pull AWS credentials or other function settings into an outbound request;
 * any other reference is left exactly as written.
 */
public final class InterlockVariables {

    /** The only names expansion may read. */
    public static final String PREFIX = "INTERLOCK_";
    private static final Pattern REFERENCE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}|\\$([A-Za-z_][A-Za-z0-9_]*)");

    private final Map<String, String> values;

    /** From any map of variables; names without the prefix are dropped here, before anything can read them. */
    public InterlockVariables(Map<String, String> variables) {
        Map<String, String> own = new TreeMap<>();
        variables.forEach((k, v) -> {
            if (k.startsWith(PREFIX) && v != null) {
                own.put(k, v);
            }
        });
        this.values = Map.copyOf(own);
    }

    /** The {@code INTERLOCK_*} variables of a function's environment. */
    public static InterlockVariables from(Environment environment) {
        return new InterlockVariables(environment.startingWith(PREFIX));
    }

    /**
     * Replaces each {@code INTERLOCK_*} reference with its value.
     *
     * @throws OutboundException.Refused when an {@code INTERLOCK_*} variable is referenced but not set (sending the
     *                                   literal reference, or an empty credential, would only fail later and less clearly)
     */
    public String expand(String text) throws OutboundException.Refused {
        if (text == null || text.indexOf('$') < 0) {
            return text;
        }
        Matcher m = REFERENCE.matcher(text);
        StringBuilder out = new StringBuilder(text.length());
        while (m.find()) {
            String name = m.group(1) != null ? m.group(1) : m.group(2);
            String replacement;
            if (!name.startsWith(PREFIX)) {
                replacement = m.group();
            } else if (values.containsKey(name)) {
                replacement = values.get(name);
            } else {
                throw new OutboundException.Refused("variable " + name + " is referenced but not set");
            }
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** Expands every value of a header map (names are taken literally). */
    public Map<String, String> expandValues(Map<String, String> headers) throws OutboundException.Refused {
        Map<String, String> result = new java.util.LinkedHashMap<>();
        if (headers != null) {
            for (Map.Entry<String, String> e : headers.entrySet()) {
                result.put(e.getKey(), expand(e.getValue()));
            }
        }
        return result;
    }
}
