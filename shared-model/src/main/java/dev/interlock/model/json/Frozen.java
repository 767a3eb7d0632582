package dev.interlock.model.json;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Immutable copies that keep insertion order and tolerate null elements (YAML {@code key:} yields null), which
 * {@code Map.copyOf}/{@code List.copyOf} reject; records use them so a missing collection reads as empty.
 */
public final class Frozen {
    private Frozen() {}

    /** An unmodifiable, order-preserving copy; null becomes empty. */
    public static <K, V> Map<K, V> map(Map<K, V> source) {
        return source == null || source.isEmpty() ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(source));
    }

    /** An unmodifiable copy; null becomes empty. */
    public static <T> List<T> list(List<T> source) {
        return source == null || source.isEmpty() ? List.of() : Collections.unmodifiableList(new ArrayList<>(source));
    }
}
