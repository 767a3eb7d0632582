package dev.interlock.model.json;

import java.util.Map;

/** Reading a text value from a trait's config the way every Interlock reader does. */
public final class ConfigText {

    private ConfigText() {}

    /** The value of {@code key}, its name matched case-insensitively, trimmed; null when absent, blank or not text. */
    public static String of(Map<String, Object> config, String key) {
        Object value = config.get(key);
        if (value == null) {
            value = config.entrySet().stream()
                    .filter(e -> e.getKey().equalsIgnoreCase(key))
                    .map(Map.Entry::getValue)
                    .findFirst()
                    .orElse(null);
        }
        return value instanceof String text && !text.isBlank() ? text.trim() : null;
    }
}
