package dev.interlock.store;

import dev.interlock.model.keys.TableKeys;
import java.util.Objects;

/**
 * A document a registered pipeline refers to by name: its archetype, its exclusion calendar, or a sensor its own trait
 * configs read. Registration keeps an index from each to its pipelines, so finding them is a Query, not a scan.
 */
public record Reference(Kind kind, String name) {

    /** What kind of document is referred to. */
    public enum Kind {
        ARCHETYPE,
        CALENDAR,
        SENSOR
    }

    public Reference {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(name, "name");
    }

    public static Reference archetype(String name) {
        return new Reference(Kind.ARCHETYPE, name);
    }

    public static Reference calendar(String name) {
        return new Reference(Kind.CALENDAR, name);
    }

    public static Reference sensor(String name) {
        return new Reference(Kind.SENSOR, name);
    }

    /** The partition that holds the index of this document's users. */
    public String partitionKey() {
        return switch (kind) {
            case ARCHETYPE -> TableKeys.archetypePk(name);
            case CALENDAR -> TableKeys.calendarPk(name);
            case SENSOR -> TableKeys.sensorPk(name);
        };
    }
}
