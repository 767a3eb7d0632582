package dev.interlock.model.lineage;

import dev.interlock.model.keys.TableKeys;
import java.util.Objects;

/**
 * A job or a dataset an OpenLineage event names, by its namespace and name ({@code dbt://analytics} and
 * {@code jaffle_shop.model.jaffle_shop.orders}). Its COMPLETE events are kept as the day partitions of a reserved
 * sensor ({@link #sensorName()}), so registration's sensor index, the sensor store and its expiry, and the arrival
 * that starts evaluations serve lineage as they serve sensors.
 */
public record LineageSubject(Kind kind, String namespace, String name) {

    /** What is named. */
    public enum Kind {
        JOB("job"),
        DATASET("dataset");

        private final String wireName;

        Kind(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }
    }

    public LineageSubject {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
    }

    public static LineageSubject job(String namespace, String name) {
        return new LineageSubject(Kind.JOB, namespace, name);
    }

    public static LineageSubject dataset(String namespace, String name) {
        return new LineageSubject(Kind.DATASET, namespace, name);
    }

    /** The reserved sensor that holds this subject's COMPLETE events ({@link TableKeys#lineageSensor}). */
    public String sensorName() {
        return TableKeys.lineageSensor(kind.wireName(), namespace, name);
    }

    /** How an operator names it: {@code job dbt://analytics/jaffle_shop.model.jaffle_shop.orders}. */
    public String label() {
        return kind.wireName() + " " + namespace + "/" + name;
    }
}
