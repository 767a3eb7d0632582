package dev.interlock.model.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The configuration a function reads: the process environment on Lambda, a map in the local runtime and in
 * tests. Every read goes through {@link EnvVar} so names exist in one place.
 */
public final class Environment {

    private final Map<String, String> values;

    private Environment(Map<String, String> values) {
        this.values = Map.copyOf(values);
    }

    /** The process environment (the Lambda entry point). */
    public static Environment system() {
        return new Environment(System.getenv());
    }

    /** An explicit set of values (local runtime, tests). */
    public static Environment of(Map<String, String> values) {
        return new Environment(values);
    }

    /** The raw value, absent when unset or blank. */
    public Optional<String> find(EnvVar variable) {
        String v = values.get(variable.name());
        return v == null || v.isBlank() ? Optional.empty() : Optional.of(v.trim());
    }

    /** The value or its documented default; a required variable without a value is an error naming it. */
    public String get(EnvVar variable) {
        return find(variable).orElseGet(() -> {
            if (variable.defaultValue() == null) {
                throw new MissingConfigurationException(List.of(variable));
            }
            return variable.defaultValue();
        });
    }

    /** An integer setting; a value that is not a whole number is an error naming the variable. */
    public int getInt(EnvVar variable) {
        String raw = get(variable);
        try {
            return Integer.parseInt(raw);
        } catch (NumberFormatException e) {
            throw new IllegalStateException(variable.name() + " must be a whole number, got '" + raw + "'", e);
        }
    }

    /** A boolean setting: {@code true} (any case) is true, everything else false. */
    public boolean getBoolean(EnvVar variable) {
        return Boolean.parseBoolean(get(variable));
    }

    /**
     * Checks, all at once, that every required variable of a function is set, so a misconfigured deployment
     * names every missing variable in one error instead of failing one variable per cold start.
     */
    public void requireFor(InterlockFunction function) {
        List<EnvVar> missing = new ArrayList<>();
        for (EnvVar v : EnvVar.usedBy(function)) {
            if (v.required() && find(v).isEmpty()) {
                missing.add(v);
            }
        }
        if (!missing.isEmpty()) {
            throw new MissingConfigurationException(missing);
        }
    }

    /**
     * Every variable whose name starts with {@code prefix}: how outbound-request expansion reads the
     * {@code INTERLOCK_*} variables without ever seeing the rest of the environment (AWS credentials among them).
     */
    public Map<String, String> startingWith(String prefix) {
        Map<String, String> result = new java.util.TreeMap<>();
        values.forEach((k, v) -> {
            if (k.startsWith(prefix)) {
                result.put(k, v);
            }
        });
        return java.util.Collections.unmodifiableMap(result);
    }

    /** A copy with some values replaced (tests and the local runtime). */
    public Environment with(Map<String, String> overrides) {
        Map<String, String> merged = new java.util.HashMap<>(values);
        merged.putAll(overrides);
        return new Environment(merged);
    }

    /** Thrown when required configuration is absent; the message lists every missing variable. */
    public static final class MissingConfigurationException extends IllegalStateException {
        private final List<EnvVar> missing;

        public MissingConfigurationException(List<EnvVar> missing) {
            super("missing required environment variables: "
                    + missing.stream()
                            .map(v -> v.name() + " (" + v.description() + ")")
                            .toList());
            this.missing = List.copyOf(missing);
        }

        public List<EnvVar> missing() {
            return missing;
        }
    }
}
