package dev.interlock.store;

import dev.interlock.model.sensor.SensorValue;
import java.time.Instant;
import java.util.Optional;

/** The latest value producers pushed for each named sensor, unpartitioned or per partition. */
public interface SensorStore {

    /**
     * Stores the fields of {@code value} (its name and partition say where; its revision is ignored) as the sensor's
     * latest value, readable until {@code expiresAt} (null: never). Fields that differ from the stored ones make a new
     * revision; the same fields again keep the revision and only move {@code updatedAt}. Concurrent writers of one
     * sensor value are serialised, so every change gets its own revision and none is lost. Revisions keep counting
     * past an expired value, so a revision never names two versions of the data.
     */
    SensorWrite write(SensorValue value, Instant expiresAt);

    /** {@link #write(SensorValue, Instant)} of a value that never expires. */
    default SensorWrite write(SensorValue value) {
        return write(value, null);
    }

    /** The unexpired unpartitioned value of sensor {@code name}. */
    default Optional<SensorValue> get(String name) {
        return get(name, null);
    }

    /** The unexpired value of one partition of sensor {@code name} (null partition: the unpartitioned value). */
    Optional<SensorValue> get(String name, String partition);

    /**
     * What a write did.
     *
     * @param stored  the value as stored now, with its revision
     * @param changed whether the fields differ from the previous live value (a new revision)
     */
    record SensorWrite(SensorValue stored, boolean changed) {}
}
