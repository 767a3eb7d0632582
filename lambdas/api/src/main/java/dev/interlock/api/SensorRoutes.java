package dev.interlock.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.json.JsonPath;
import dev.interlock.model.json.ValidationError;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.model.sensor.SensorValue;
import dev.interlock.store.Provider;
import dev.interlock.store.SensorStore;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * {@code /sensors/{name}} and {@code /sensors/{name}/partitions/{partition}}: producers push the latest fields of a
 * sensor or of one of its partitions (the API stamps {@code updatedAt}); operators read what Interlock sees.
 */
final class SensorRoutes {

    /** Field names are what {@code sensor-threshold} configs refer to. */
    static final Pattern FIELD_NAME = Pattern.compile("^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$");

    static final int MAX_FIELDS = 100;
    /** Set by the API, so a producer cannot back-date a value and fool {@code sensor-freshness}. */
    static final String RESERVED = "updatedAt";

    private final Provider provider;
    private final RequestBody body;
    private final Clock clock;
    private final SensorArrivals arrivals;

    SensorRoutes(Provider provider, RequestBody body, Clock clock, SensorArrivals arrivals) {
        this.provider = provider;
        this.body = body;
        this.clock = clock;
        this.arrivals = arrivals;
    }

    /**
     * The answer to a write: the value as stored, whether it changed, and what it started (the evaluations of the
     * pipeline days that read it) or left and why.
     */
    record Written(
            String name,
            String partition,
            Map<String, Object> fields,
            Instant updatedAt,
            long revision,
            boolean changed,
            List<SensorArrivals.Evaluation> evaluations,
            List<SensorArrivals.Skip> skipped) {
        static Written of(SensorStore.SensorWrite write, SensorArrivals.Outcome outcome) {
            SensorValue v = write.stored();
            return new Written(
                    v.name(),
                    v.partition(),
                    v.fields(),
                    v.updatedAt(),
                    v.revision(),
                    write.changed(),
                    outcome.evaluations(),
                    outcome.skipped());
        }
    }

    /** A threshold compared with infinity is meaningless, and JSON has no way to write it back. */
    private static boolean hasNonFiniteNumber(JsonNode node) {
        if (node.isNumber()) {
            return (node.isDouble() || node.isFloat()) && !Double.isFinite(node.doubleValue());
        }
        for (JsonNode child : node) {
            if (hasNonFiniteNumber(child)) {
                return true;
            }
        }
        return false;
    }

    /** {@code PUT /sensors/{name}}: the unpartitioned value. */
    ApiResponse put(ApiRequest request, Map<String, String> path) {
        return write(request, PathIds.sensorName(path.get("name")), null);
    }

    /** {@code PUT /sensors/{name}/partitions/{partition}}: one partition's value. */
    ApiResponse putPartition(ApiRequest request, Map<String, String> path) {
        String name = PathIds.sensorName(path.get("name"));
        return write(request, name, PathIds.partition(path.get("partition")));
    }

    /** {@code GET /sensors/{name}}. */
    ApiResponse get(ApiRequest request, Map<String, String> path) {
        return read(PathIds.sensorName(path.get("name")), null);
    }

    /** {@code GET /sensors/{name}/partitions/{partition}}. */
    ApiResponse getPartition(ApiRequest request, Map<String, String> path) {
        String name = PathIds.sensorName(path.get("name"));
        return read(name, PathIds.partition(path.get("partition")));
    }

    private ApiResponse read(String name, String partition) {
        return provider.sensors()
                .get(name, partition)
                .map(value -> ApiResponse.json(200, value))
                .orElseThrow(() -> ProblemException.of(
                        ProblemType.NOT_FOUND,
                        "no value of sensor '" + name + "'"
                                + (partition == null ? "" : " partition '" + partition + "'")));
    }

    private ApiResponse write(ApiRequest request, String name, String partition) {
        if (name.startsWith(TableKeys.LINEAGE_SENSOR_PREFIX)) {
            // Written by POST /lineage only: a producer must not fake a COMPLETE event through a sensor write.
            throw ProblemException.invalid(
                    "path.name",
                    "sensor names starting with '" + TableKeys.LINEAGE_SENSOR_PREFIX
                            + "' hold OpenLineage events received at POST /lineage; choose another name");
        }
        JsonNode document = body.readObject(request, false);
        List<ValidationError> errors = new ArrayList<>();
        if (document.isEmpty()) {
            errors.add(new ValidationError(JsonPath.ROOT, "at least one field is required, e.g. {\"count\":1500}"));
        } else if (document.size() > MAX_FIELDS) {
            errors.add(new ValidationError(JsonPath.ROOT, "at most " + MAX_FIELDS + " fields, got " + document.size()));
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = document.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            String fieldPath = JsonPath.field(JsonPath.ROOT, field.getKey());
            if (field.getKey().equalsIgnoreCase(RESERVED)) {
                errors.add(new ValidationError(fieldPath, "is set by Interlock when the value is stored"));
            } else if (!FIELD_NAME.matcher(field.getKey()).matches()) {
                errors.add(new ValidationError(fieldPath, "field names must match " + FIELD_NAME.pattern()));
            } else if (field.getValue().isNull()) {
                errors.add(new ValidationError(fieldPath, "must have a value (leave the field out instead of null)"));
            } else if (hasNonFiniteNumber(field.getValue())) {
                errors.add(new ValidationError(
                        fieldPath, "numbers must be finite (1e400 is beyond the range of a double)"));
            } else {
                fields.put(field.getKey(), InterlockJson.convert(field.getValue(), Object.class));
            }
        }
        if (!errors.isEmpty()) {
            throw ProblemException.invalid("the sensor value has " + errors.size() + " problem(s)", errors);
        }
        SensorStore.SensorWrite written =
                provider.sensors().write(new SensorValue(name, partition, fields, clock.instant(), 0));
        // Stored first: if starting the readers fails, the producer's retry (same data, same revision) starts them.
        return ApiResponse.json(200, Written.of(written, arrivals.after(written)));
    }
}
