package dev.interlock.model.lineage;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.json.JsonPath;
import dev.interlock.model.json.ValidationError;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * The essentials of an OpenLineage {@code RunEvent} (spec 2-0-2) that another tool posted: what happened
 * ({@code eventType}), when, to which run of which job, and which datasets it wrote. Facets Interlock does not read are
 * accepted and ignored, except {@code run.facets.nominalTime}, which says which period a run is for: an event is for
 * the day of its {@code nominalStartTime} when it has one, else of its {@code eventTime}, each read in the offset it
 * is written with.
 */
public record LineageRunEvent(
        EventType eventType,
        OffsetDateTime eventTime,
        String runId,
        LineageSubject job,
        List<LineageSubject> outputs,
        String producer,
        LocalDate day) {

    /** Names, namespaces and the producer are kept in the table: a bound keeps one event's item small. */
    public static final int MAX_TEXT = 1024;
    /** At most this many outputs are stored per event. */
    public static final int MAX_OUTPUTS = 50;

    public LineageRunEvent {
        outputs = List.copyOf(outputs);
    }

    /** The run states of the spec; only COMPLETE completes a job. */
    public enum EventType {
        START,
        RUNNING,
        COMPLETE,
        ABORT,
        FAIL,
        OTHER
    }

    /** The fields a COMPLETE event leaves on its job's and outputs' reserved sensors (what the trait reports). */
    public Map<String, Object> storedFields() {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("eventType", eventType.name());
        fields.put("eventTime", eventTime.toString());
        fields.put("runId", runId);
        fields.put("jobNamespace", job.namespace());
        fields.put("job", job.name());
        if (producer != null) {
            fields.put("producer", producer);
        }
        return fields;
    }

    /** The event in {@code document}, or the problems that keep it from being one (paths from the document root). */
    public static Parsed parse(JsonNode document) {
        List<ValidationError> errors = new ArrayList<>();
        if (document == null || !document.isObject()) {
            errors.add(new ValidationError(JsonPath.ROOT, "an OpenLineage RunEvent must be a JSON object"));
            return new Parsed(null, errors);
        }
        EventType type = null;
        String rawType = textAt(document, "eventType", JsonPath.ROOT, errors);
        if (rawType != null) {
            try {
                type = EventType.valueOf(rawType.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                errors.add(new ValidationError(
                        JsonPath.field(JsonPath.ROOT, "eventType"),
                        "eventType must be one of START, RUNNING, COMPLETE, ABORT, FAIL, OTHER; got '" + rawType
                                + "'"));
            }
        }
        OffsetDateTime eventTime = time(document, "eventTime", JsonPath.ROOT, true, errors);
        String runPath = JsonPath.field(JsonPath.ROOT, "run");
        String runId = null;
        OffsetDateTime nominal = null;
        JsonNode run = object(document, "run", JsonPath.ROOT, errors);
        if (run != null) {
            String raw = textAt(run, "runId", runPath, errors);
            if (raw != null) {
                try {
                    runId = UUID.fromString(raw).toString();
                    if (!runId.equalsIgnoreCase(raw)) {
                        throw new IllegalArgumentException(raw);
                    }
                } catch (IllegalArgumentException e) {
                    errors.add(new ValidationError(
                            JsonPath.field(runPath, "runId"), "runId must be a UUID, got '" + raw + "'"));
                    runId = null;
                }
            }
            JsonNode nominalTime = run.path("facets").path("nominalTime");
            if (nominalTime.isObject()) {
                String facetPath = JsonPath.field(JsonPath.field(runPath, "facets"), "nominalTime");
                nominal = time(nominalTime, "nominalStartTime", facetPath, false, errors);
            }
        }
        LineageSubject job = null;
        String jobPath = JsonPath.field(JsonPath.ROOT, "job");
        JsonNode jobNode = object(document, "job", JsonPath.ROOT, errors);
        if (jobNode != null) {
            String namespace = textAt(jobNode, "namespace", jobPath, errors);
            String name = textAt(jobNode, "name", jobPath, errors);
            if (namespace != null && name != null) {
                job = LineageSubject.job(namespace, name);
            }
        }
        List<LineageSubject> outputs = new ArrayList<>();
        JsonNode outs = document.path("outputs");
        String outputsPath = JsonPath.field(JsonPath.ROOT, "outputs");
        if (!outs.isMissingNode() && !outs.isNull()) {
            if (!outs.isArray()) {
                errors.add(new ValidationError(outputsPath, "outputs must be an array of datasets"));
            } else if (outs.size() > MAX_OUTPUTS) {
                errors.add(new ValidationError(
                        outputsPath, "at most " + MAX_OUTPUTS + " outputs are accepted, got " + outs.size()));
            } else {
                for (int i = 0; i < outs.size(); i++) {
                    String path = JsonPath.index(outputsPath, i);
                    JsonNode out = outs.get(i);
                    if (!out.isObject()) {
                        errors.add(new ValidationError(path, "a dataset must be an object with namespace and name"));
                        continue;
                    }
                    String namespace = textAt(out, "namespace", path, errors);
                    String name = textAt(out, "name", path, errors);
                    if (namespace != null && name != null) {
                        outputs.add(LineageSubject.dataset(namespace, name));
                    }
                }
            }
        }
        String producer = null;
        JsonNode producerNode = document.path("producer");
        if (producerNode.isTextual() && !producerNode.asText().isBlank()) {
            producer = producerNode.asText().length() > MAX_TEXT
                    ? producerNode.asText().substring(0, MAX_TEXT)
                    : producerNode.asText();
        }
        if (!errors.isEmpty()) {
            return new Parsed(null, errors);
        }
        LocalDate day = (nominal != null ? nominal : eventTime).toLocalDate();
        return new Parsed(new LineageRunEvent(type, eventTime, runId, job, outputs, producer, day), List.of());
    }

    /** An event, or why the document is none. */
    public record Parsed(LineageRunEvent event, List<ValidationError> errors) {
        public Parsed {
            errors = List.copyOf(errors);
        }
    }

    private static JsonNode object(JsonNode parent, String field, String parentPath, List<ValidationError> errors) {
        JsonNode node = parent.path(field);
        if (!node.isObject()) {
            errors.add(new ValidationError(
                    JsonPath.field(parentPath, field),
                    node.isMissingNode() ? field + " is required" : field + " must be an object"));
            return null;
        }
        return node;
    }

    private static String textAt(JsonNode parent, String field, String parentPath, List<ValidationError> errors) {
        JsonNode node = parent.path(field);
        String path = JsonPath.field(parentPath, field);
        if (node.isMissingNode() || node.isNull()) {
            errors.add(new ValidationError(path, field + " is required"));
            return null;
        }
        if (!node.isTextual() || node.asText().isBlank()) {
            errors.add(new ValidationError(path, field + " must be a non-empty string"));
            return null;
        }
        if (node.asText().length() > MAX_TEXT) {
            errors.add(new ValidationError(path, field + " is longer than " + MAX_TEXT + " characters"));
            return null;
        }
        return node.asText();
    }

    private static OffsetDateTime time(
            JsonNode parent, String field, String parentPath, boolean required, List<ValidationError> errors) {
        JsonNode node = parent.path(field);
        if (!required && (node.isMissingNode() || node.isNull())) {
            return null;
        }
        String raw = textAt(parent, field, parentPath, errors);
        if (raw == null) {
            return null;
        }
        try {
            return OffsetDateTime.parse(raw);
        } catch (DateTimeParseException e) {
            errors.add(new ValidationError(
                    JsonPath.field(parentPath, field),
                    field + " must be an ISO-8601 date-time with an offset, e.g. 2026-03-01T05:12:33.123Z; got '" + raw
                            + "'"));
            return null;
        }
    }
}
