package dev.interlock.model.json;

/** Builds the JSON paths validation errors carry ({@code $.traits.source-freshness.evaluator}, {@code $.a[2]}). */
public final class JsonPath {
    /** The document root. */
    public static final String ROOT = "$";

    private JsonPath() {}

    /** {@code parent.name}, or {@code parent['na.me']} when the name would be ambiguous in dot form. */
    public static String field(String parent, String name) {
        boolean plain =
                !name.isEmpty() && name.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '_' || c == '-');
        return plain ? parent + "." + name : parent + "['" + name.replace("'", "\\'") + "']";
    }

    /** {@code parent[index]}. */
    public static String index(String parent, int index) {
        return parent + "[" + index + "]";
    }

    /** Whether {@code path} is {@code ancestor} itself or lies below it. */
    public static boolean isWithin(String path, String ancestor) {
        if (!path.startsWith(ancestor)) {
            return false;
        }
        if (path.length() == ancestor.length()) {
            return true;
        }
        char next = path.charAt(ancestor.length());
        return next == '.' || next == '[';
    }
}
