package dev.interlock.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.sensor.SensorValue;
import dev.interlock.model.json.JsonPath;
import dev.interlock.model.validation.ValidationError;
import dev.interlock.store.Provider;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** {@code PUT /sensors/{name}}: producers push the latest fields of a sensor; the API stamps {@code updatedAt}. */
final class SensorRoutes {

    /** Field names are what {@code sensor-threshold} configs refer to. */
    static final Pattern FIELD_NAME = Pattern.compile("^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$");
    static final int MAX_FIELDS = 100;
    /** Set by the API, so a producer cannot back-date a value and fool {@code sensor-freshness}. */
    static final String RESERVED = "updatedAt";

    private final Provider provider;
    private final RequestBody body;
    private final Clock clock;

    SensorRoutes(Provider provider, RequestBody body, Clock clock) {
        this.provider = provider;
        this.body = body;
        this.clock = clock;
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

    ApiResponse put(ApiRequest request, Map<String, String> path) {
        String name = PathIds.sensorName(path.get("name"));
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
                errors.add(new ValidationError(fieldPath, "numbers must be finite (1e400 is beyond the range of a double)"));
            } else {
                fields.put(field.getKey(), InterlockJson.convert(field.getValue(), Object.class));
            }
        }
        if (!errors.isEmpty()) {
            throw ProblemException.invalid("the sensor value has " + errors.size() + " problem(s)", errors);
        }
        SensorValue value = new SensorValue(name, fields, clock.instant());
        provider.sensors().put(value);
        return ApiResponse.json(200, value);
    }
}
