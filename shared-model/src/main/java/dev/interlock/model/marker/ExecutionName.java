package dev.interlock.model.marker;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.LocalDate;
import java.util.HexFormat;

/**
 * The Step Functions execution name of one marker (docs/table-design.md, Markers): {@code <pipeline>_<date>_<schedule>_<hash8>}. The
 * hash of the marker's sort key makes every marker start its own execution while a re-delivered stream record
 * maps to the same name (ExecutionAlreadyExists = already done).
 */
public final class ExecutionName {

    /** Step Functions limits execution names to 80 characters. */
    public static final int MAX_LENGTH = 80;

    private static final int HASH_LENGTH = 8;

    private ExecutionName() {}

    /** The execution name for the marker with sort key {@code markerSk}. */
    public static String of(String pipelineId, LocalDate date, String scheduleId, String markerSk) {
        String hash = hash8(markerSk);
        String prefix = sanitise(pipelineId + "_" + date + "_" + scheduleId);
        int room = MAX_LENGTH - HASH_LENGTH - 1;
        // Truncate the readable part, never the hash: the hash is what keeps two markers' names apart.
        if (prefix.length() > room) {
            prefix = prefix.substring(0, room);
        }
        return prefix + "_" + hash;
    }

    /** First 8 hex digits of the SHA-256 of {@code text}. */
    public static String hash8(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(String.valueOf(text).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, HASH_LENGTH / 2);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java runtime", e);
        }
    }

    /** Replaces every character outside {@code [A-Za-z0-9_-]} with '_'. */
    public static String sanitise(String text) {
        StringBuilder out = new StringBuilder(text.length());
        text.codePoints().forEach(cp -> out.append(isAllowed(cp) ? (char) cp : '_'));
        return out.toString();
    }

    private static boolean isAllowed(int cp) {
        return (cp >= 'a' && cp <= 'z')
                || (cp >= 'A' && cp <= 'Z')
                || (cp >= '0' && cp <= '9')
                || cp == '_'
                || cp == '-';
    }
}
