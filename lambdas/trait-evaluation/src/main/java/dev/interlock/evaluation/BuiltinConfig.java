package dev.interlock.evaluation;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Optional;

/**
 * A builtin's view of its trait config: typed reads that fail with {@link Invalid} naming the builtin and the key,
 * which the evaluation reports as ERROR PERMANENT (a config mistake does not fix itself on the next try).
 */
final class BuiltinConfig {

    private final String builtin;
    private final Map<String, Object> config;

    BuiltinConfig(String builtin, Map<String, Object> config) {
        this.builtin = builtin;
        this.config = config == null ? Map.of() : config;
    }

    /** A missing or unusable config key. */
    static final class Invalid extends Exception {
        private static final long serialVersionUID = 1L;

        Invalid(String message) {
            super(message);
        }
    }

    /** A non-blank text value. */
    String requireText(String key) throws Invalid {
        return text(key).orElseThrow(() -> missing(key));
    }

    /** A text value when present and not blank. */
    Optional<String> text(String key) {
        Object v = raw(key);
        if (v == null || v instanceof Map<?, ?> || v instanceof Iterable<?>) {
            return Optional.empty();
        }
        String s = String.valueOf(v).trim();
        return s.isEmpty() ? Optional.empty() : Optional.of(s);
    }

    /** A number, given as a JSON number or a numeric string. */
    BigDecimal requireNumber(String key) throws Invalid {
        Object v = raw(key);
        if (v == null) {
            throw missing(key);
        }
        return number(v)
                .orElseThrow(() ->
                        new Invalid("builtin:" + builtin + " config '" + key + "' must be a number, got '" + v + "'"));
    }

    /** A scalar (number, string or boolean) as given. */
    Object requireScalar(String key) throws Invalid {
        Object v = raw(key);
        if (v == null) {
            throw missing(key);
        }
        if (v instanceof Map<?, ?> || v instanceof Iterable<?>) {
            throw new Invalid("builtin:" + builtin + " config '" + key + "' must be a number, string or boolean");
        }
        return v;
    }

    /** A value read as a number where it is one ({@code 12}, {@code 1.5}, {@code "12"}); booleans are not. */
    static Optional<BigDecimal> number(Object v) {
        if (v instanceof Number n) {
            try {
                return Optional.of(new BigDecimal(n.toString()));
            } catch (NumberFormatException e) {
                // NaN or infinity: not a number a threshold can be compared with.
                return Optional.empty();
            }
        }
        if (v instanceof String s) {
            try {
                return Optional.of(new BigDecimal(s.trim()));
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    /** Keys are matched case-insensitively, like every Interlock reader (InterlockJson). */
    private Object raw(String key) {
        Object exact = config.get(key);
        if (exact != null) {
            return exact;
        }
        for (Map.Entry<String, Object> e : config.entrySet()) {
            if (e.getKey().equalsIgnoreCase(key)) {
                return e.getValue();
            }
        }
        return null;
    }

    private Invalid missing(String key) {
        return new Invalid("builtin:" + builtin + " config missing: " + key);
    }
}
