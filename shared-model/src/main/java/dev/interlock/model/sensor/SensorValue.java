package dev.interlock.model.sensor;

import dev.interlock.model.json.Frozen;

import java.time.Instant;
import java.util.Map;

/** The latest fields a producer pushed for a named sensor (e.g. {@code {"count":1500,"complete":true}}). */
public record SensorValue(String name, Map<String, Object> fields, Instant updatedAt) {
    public SensorValue {
        fields = Frozen.map(fields);
    }
}
