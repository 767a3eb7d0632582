package dev.interlock.model.sensor;

import dev.interlock.model.json.Frozen;
import dev.interlock.model.json.InterlockJson;
import java.time.Instant;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The latest fields a producer pushed for a named sensor (e.g. {@code {"count":1500,"complete":true}}), either the
 * sensor's unpartitioned value or the value of one of its partitions ({@code 2026-03-01}, {@code 2026-03-01T06}).
 *
 * @param partition null for the unpartitioned value
 * @param revision  counts the writes that changed the fields (1 for the first): a write of the same fields only moves
 *                  {@code updatedAt}, so the revision names one version of the data (what a sensor-driven evaluation
 *                  is keyed by); 0 for a value not stored yet
 */
public record SensorValue(String name, String partition, Map<String, Object> fields, Instant updatedAt, long revision) {

    /** Sensor names are chosen by producers and appear in keys and URL paths: no '#', '/' or whitespace. */
    public static final Pattern NAME = Pattern.compile("^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$");

    public SensorValue {
        fields = Frozen.map(fields);
    }

    /** A value of the unpartitioned sensor, not stored yet. */
    public SensorValue(String name, Map<String, Object> fields, Instant updatedAt) {
        this(name, null, fields, updatedAt, 0);
    }

    /** Whether {@code other} carries the same fields (as JSON: {@code 1500} and {@code 1500.0} differ, key order does not). */
    public boolean sameFieldsAs(SensorValue other) {
        return other != null && InterlockJson.tree(fields).equals(InterlockJson.tree(other.fields));
    }

    /** This value as stored at {@code revision}. */
    public SensorValue atRevision(long revision) {
        return new SensorValue(name, partition, fields, updatedAt, revision);
    }

    /** How an operator names it: {@code orders} or {@code orders/2026-03-01}. */
    public String label() {
        return partition == null ? name : name + "/" + partition;
    }
}
