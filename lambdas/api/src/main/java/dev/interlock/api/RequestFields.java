package dev.interlock.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.json.JsonPath;
import dev.interlock.model.json.ValidationError;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The text fields of a small request body the API itself defines (evaluations, reruns): a closed set, so an unknown
 * field is reported (it is a typo, and ignoring it would do something the caller did not ask for).
 */
final class RequestFields {

    private final Map<String, String> values = new LinkedHashMap<>();

    private RequestFields() {}

    /** Reads {@code allowed} text fields (names case-insensitive), adding an error per unknown or non-text field. */
    static RequestFields read(JsonNode document, List<String> allowed, List<ValidationError> errors) {
        RequestFields fields = new RequestFields();
        for (Iterator<Map.Entry<String, JsonNode>> it = document.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            String canonical = allowed.stream()
                    .filter(a -> a.equalsIgnoreCase(entry.getKey()))
                    .findFirst()
                    .orElse(null);
            if (canonical == null) {
                errors.add(new ValidationError(
                        JsonPath.field(JsonPath.ROOT, entry.getKey()),
                        "unknown field; allowed: " + String.join(", ", allowed)));
                continue;
            }
            JsonNode value = entry.getValue();
            if (value.isNull()) {
                continue;
            }
            if (!value.isTextual()) {
                errors.add(new ValidationError(
                        JsonPath.field(JsonPath.ROOT, canonical),
                        "expected text, got " + value.getNodeType().name().toLowerCase(java.util.Locale.ROOT)));
                continue;
            }
            fields.values.put(canonical, value.asText());
        }
        return fields;
    }

    /** The field's text, null when absent. */
    String text(String name) {
        return values.get(name);
    }

    /** A {@code YYYY-MM-DD} date, null when absent; an unparsable one adds an error. */
    LocalDate date(String name, List<ValidationError> errors) {
        String raw = values.get(name);
        if (raw == null) {
            return null;
        }
        try {
            if (raw.length() != 10) {
                throw new DateTimeParseException("not YYYY-MM-DD", raw, 0);
            }
            return LocalDate.parse(raw);
        } catch (DateTimeParseException e) {
            errors.add(
                    new ValidationError(JsonPath.field(JsonPath.ROOT, name), "'" + raw + "' is not a date YYYY-MM-DD"));
            return null;
        }
    }

    /** An instant ({@code 2026-03-01T06:00:00Z}), null when absent; an unparsable one adds an error. */
    Instant instant(String name, List<ValidationError> errors) {
        String raw = values.get(name);
        if (raw == null) {
            return null;
        }
        try {
            return Instant.parse(raw.strip());
        } catch (DateTimeParseException e) {
            errors.add(new ValidationError(
                    JsonPath.field(JsonPath.ROOT, name), "'" + raw + "' is not a time like 2026-03-01T06:00:00Z"));
            return null;
        }
    }

    /** Free text for people (a rerun reason): required or not, at most {@code max} characters, no control characters but line breaks and tabs. */
    String prose(String name, boolean required, int max, List<ValidationError> errors) {
        String raw = values.get(name);
        String path = JsonPath.field(JsonPath.ROOT, name);
        if (raw == null || raw.isBlank()) {
            if (required) {
                errors.add(new ValidationError(path, "is required"));
            }
            return null;
        }
        if (raw.length() > max) {
            errors.add(new ValidationError(path, "must be at most " + max + " characters, got " + raw.length()));
            return null;
        }
        boolean control = raw.chars().anyMatch(c -> Character.isISOControl(c) && c != '\n' && c != '\r' && c != '\t');
        if (control) {
            errors.add(new ValidationError(path, "must not contain control characters"));
            return null;
        }
        return raw.trim();
    }
}
