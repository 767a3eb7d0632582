package dev.interlock.store;

import dev.interlock.model.sensor.SensorValue;

import java.time.Instant;
import java.util.Optional;

/** The latest value producers pushed for each named sensor. */
public interface SensorStore {

    /** Stores (replaces) a sensor value that never expires. */
    default void put(SensorValue value) {
        put(value, null);
    }

    /** Stores (replaces) a sensor value that reads as absent from {@code expiresAt} on (null: never). */
    void put(SensorValue value, Instant expiresAt);

    /** The unexpired value of sensor {@code name}. */
    Optional<SensorValue> get(String name);
}
