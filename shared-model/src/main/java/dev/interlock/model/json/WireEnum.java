package dev.interlock.model.json;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * An enum with a wire name, read leniently (case, '-' vs '_') and rejected with the list of allowed values.
 */
public interface WireEnum {

    /** The value as written in JSON/YAML. */
    String wireName();

    /** Parses {@code raw} into a constant of {@code type}; unknown values name the allowed ones. */
    static <E extends Enum<E> & WireEnum> E parse(Class<E> type, String raw, String what) {
        if (raw == null || raw.isBlank()) {
            throw new IllegalArgumentException(what + " is empty; allowed: " + allowed(type));
        }
        String wanted = normalise(raw);
        for (E constant : type.getEnumConstants()) {
            if (normalise(constant.wireName()).equals(wanted)
                    || normalise(constant.name()).equals(wanted)) {
                return constant;
            }
        }
        throw new IllegalArgumentException("unknown " + what + " '" + raw + "'; allowed: " + allowed(type));
    }

    /** The allowed wire names, comma separated, in declaration order. */
    static <E extends Enum<E> & WireEnum> String allowed(Class<E> type) {
        return Arrays.stream(type.getEnumConstants()).map(WireEnum::wireName).collect(Collectors.joining(", "));
    }

    private static String normalise(String s) {
        return s.trim().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
