package dev.interlock.streamrouter;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.model.marker.ExecutionName;
import dev.interlock.model.marker.Marker;
import dev.interlock.model.marker.MarkerAttributes;
import dev.interlock.model.runtime.TableDefinition;
import dev.interlock.model.validation.PipelineValidation;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;

/**
 * A marker as the stream delivers it: the NewImage attributes the router needs, read without a table lookup.
 *
 * @param markerSk the marker's sort key; its hash keeps the execution names of two markers of one day apart
 */
public record MarkerRecord(
        String pipelineId,
        String scheduleId,
        LocalDate date,
        String source,
        boolean replay,
        String markerSk,
        Map<String, Object> carried) {

    public MarkerRecord {
        carried = Marker.copyOfCarried(carried);
    }

    /** A marker that carries no state. */
    public MarkerRecord(
            String pipelineId, String scheduleId, LocalDate date, String source, boolean replay, String markerSk) {
        this(pipelineId, scheduleId, date, source, replay, markerSk, Map.of());
    }

    /** The schedule of a marker that names none. */
    public static final String DEFAULT_SCHEDULE = "daily";

    /** The execution this marker starts: one per marker sort key. */
    public String executionName() {
        return ExecutionName.of(pipelineId, date, scheduleId, markerSk);
    }

    /** The execution's input. */
    public ExecutionInput executionInput() {
        return new ExecutionInput(pipelineId, scheduleId, date, source, replay, carried);
    }

    /** What reading one stream record gave. */
    public sealed interface Reading {}

    /** A marker insert to route. */
    public record Routable(MarkerRecord marker) implements Reading {}

    /** Not a marker insert (the mapping's filter should have dropped it): nothing to do. */
    public record NotAMarker(String reason) implements Reading {}

    /** A marker insert whose attributes cannot be read; it is reported as failed so it reaches the on-failure destination. */
    public record Unreadable(String reason) implements Reading {}

    /** The current date of a pipeline's schedule: what a marker without a date means. */
    @FunctionalInterface
    public interface CurrentDate {
        LocalDate of(String pipelineId, String scheduleId);
    }

    /** {@link #read(DynamodbStreamRecord, TableDefinition, CurrentDate)} with one date for every pipeline. */
    public static Reading read(DynamodbStreamRecord record, TableDefinition table, LocalDate today) {
        return read(record, table, (pipelineId, scheduleId) -> today);
    }

    /**
     * Reads one record; attributes of the wrong type are an {@link Unreadable}, never an exception. A marker without a
     * date gets {@code today} of its pipeline and schedule, asked only then (it may read the pipeline's config).
     */
    public static Reading read(DynamodbStreamRecord record, TableDefinition table, CurrentDate today) {
        if (record.getDynamodb() == null) {
            return new NotAMarker("the record has no dynamodb section");
        }
        Map<String, AttributeValue> keys = record.getDynamodb().getKeys();
        AttributeValue skValue = keys == null ? null : keys.get(table.sortKey());
        String sk = skValue == null ? null : skValue.getS();
        if (!table.isMarkerInsert(record.getEventName(), sk)) {
            return new NotAMarker("event " + record.getEventName() + " of sort key " + sk + " is not a marker insert");
        }
        Map<String, AttributeValue> image = record.getDynamodb().getNewImage();
        if (image == null) {
            return new Unreadable("the marker insert carries no NewImage (the stream must include new images)");
        }
        try {
            AttributeValue pkValue = keys.get(table.partitionKey());
            String pipelineFromKey = TableKeys.pipelineIdOf(pkValue == null ? null : pkValue.getS());
            String pipelineId = text(image, MarkerAttributes.PIPELINE_ID);
            if (pipelineId == null) {
                pipelineId = pipelineFromKey;
            } else if (pipelineFromKey != null && !pipelineFromKey.equals(pipelineId)) {
                throw new IllegalArgumentException(
                        "attribute pipelineId '" + pipelineId + "' disagrees with the partition key " + pkValue.getS());
            }
            if (pipelineId == null) {
                throw new IllegalArgumentException(
                        "no pipelineId attribute and the partition key is not PIPELINE#<id>");
            }
            String scheduleId = text(image, MarkerAttributes.SCHEDULE_ID);
            if (scheduleId == null) {
                scheduleId = DEFAULT_SCHEDULE;
            } else if (!PipelineValidation.SCHEDULE_NAME.matcher(scheduleId).matches()) {
                throw new IllegalArgumentException("attribute scheduleId '" + scheduleId + "' must match "
                        + PipelineValidation.SCHEDULE_NAME.pattern());
            }
            String rawDate = text(image, MarkerAttributes.DATE);
            LocalDate date = rawDate == null ? today.of(pipelineId, scheduleId) : date(rawDate);
            String source = text(image, MarkerAttributes.SOURCE);
            if (source == null) {
                source = TableKeys.markerSourceOf(sk);
            }
            boolean replay = flag(image, MarkerAttributes.REPLAY);
            return new Routable(new MarkerRecord(
                    pipelineId, scheduleId, date, source == null ? "" : source, replay, sk, carried(image)));
        } catch (IllegalArgumentException e) {
            return new Unreadable(e.getMessage());
        }
    }

    /** The state a monitoring successor resumes with: a JSON object in the string attribute {@code carried}. */
    private static Map<String, Object> carried(Map<String, AttributeValue> image) {
        String raw = text(image, MarkerAttributes.CARRIED);
        if (raw == null) {
            return Map.of();
        }
        Object parsed;
        try {
            parsed = InterlockJson.read(raw, Object.class);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("attribute carried is not JSON: " + e.getMessage(), e);
        }
        if (!(parsed instanceof Map<?, ?> object)) {
            throw new IllegalArgumentException("attribute carried must be a JSON object");
        }
        Map<String, Object> carried = new java.util.LinkedHashMap<>();
        object.forEach((k, v) -> carried.put(String.valueOf(k), v));
        return carried;
    }

    private static LocalDate date(String raw) {
        try {
            return LocalDate.parse(raw);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("attribute date '" + raw + "' is not a date YYYY-MM-DD", e);
        }
    }

    /** A string attribute, absent when missing, NULL or blank; any other type is an error naming the attribute. */
    private static String text(Map<String, AttributeValue> image, String name) {
        AttributeValue value = attribute(image, name);
        if (value == null || Boolean.TRUE.equals(value.getNULL())) {
            return null;
        }
        if (value.getS() == null) {
            throw new IllegalArgumentException("attribute " + name + " must be a string (S), got " + typeOf(value));
        }
        return value.getS().isBlank() ? null : value.getS().trim();
    }

    /** A boolean attribute, false when missing; BOOL, or the strings true/false that CLI-written markers carry. */
    private static boolean flag(Map<String, AttributeValue> image, String name) {
        AttributeValue value = attribute(image, name);
        if (value == null || Boolean.TRUE.equals(value.getNULL())) {
            return false;
        }
        if (value.getBOOL() != null) {
            return value.getBOOL();
        }
        if (value.getS() != null
                && (value.getS().equalsIgnoreCase("true") || value.getS().equalsIgnoreCase("false"))) {
            return Boolean.parseBoolean(value.getS().toLowerCase(Locale.ROOT));
        }
        throw new IllegalArgumentException("attribute " + name + " must be a boolean (BOOL), got " + typeOf(value));
    }

    /** The attribute called {@code name}, matched case-insensitively like every Interlock reader (the Go original wrote scheduleID). */
    private static AttributeValue attribute(Map<String, AttributeValue> image, String name) {
        AttributeValue exact = image.get(name);
        if (exact != null) {
            return exact;
        }
        for (Map.Entry<String, AttributeValue> entry : image.entrySet()) {
            if (entry.getKey().equalsIgnoreCase(name)) {
                return entry.getValue();
            }
        }
        return null;
    }

    private static String typeOf(AttributeValue value) {
        if (value.getN() != null) {
            return "N " + value.getN();
        }
        if (value.getBOOL() != null) {
            return "BOOL " + value.getBOOL();
        }
        if (value.getS() != null) {
            return "S '" + value.getS() + "'";
        }
        if (value.getM() != null) {
            return "M";
        }
        if (value.getL() != null) {
            return "L";
        }
        if (value.getB() != null) {
            return "B";
        }
        if (value.getSS() != null || value.getNS() != null || value.getBS() != null) {
            return "a set";
        }
        return "an empty value";
    }
}
