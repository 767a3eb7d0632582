package dev.interlock.model.arrival;

import dev.interlock.model.archetype.Archetype;
import dev.interlock.model.archetype.TraitDefinition;
import dev.interlock.model.lineage.LineageGate;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.pipeline.TraitConfig;
import dev.interlock.model.sensor.SensorValue;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The sensors a document names in its trait configs ({@code config.sensor}, and the reserved sensor of a
 * {@code lineage-complete} gate's job or dataset): what registration indexes so that a
 * sensor write finds the pipelines that may read it. A pipeline's own overrides and an archetype's defaults are indexed
 * separately (an archetype change must not rewrite its users' entries); the union may name a sensor no resolved trait
 * reads (a pipeline overriding its archetype's sensor), which the reader filters out by resolving the traits.
 */
public final class SensorReferences {

    /** The config key a sensor builtin names its sensor with. */
    public static final String SENSOR_KEY = "sensor";

    private SensorReferences() {}

    /** The sensors named by the pipeline's own trait configs. */
    public static Set<String> of(PipelineConfig pipeline) {
        Set<String> sensors = new TreeSet<>();
        for (TraitConfig trait : pipeline.traits().values()) {
            if (trait != null) {
                add(trait.config(), sensors);
            }
        }
        return sensors;
    }

    /** The sensors named by an archetype's trait defaults. */
    public static Set<String> of(Archetype archetype) {
        Set<String> sensors = new TreeSet<>();
        for (TraitDefinition trait : archetype.requiredTraits()) {
            if (trait != null) {
                add(trait.defaultConfig(), sensors);
            }
        }
        for (TraitDefinition trait : archetype.optionalTraits()) {
            if (trait != null) {
                add(trait.defaultConfig(), sensors);
            }
        }
        return sensors;
    }

    /** A name that cannot be a sensor's (no producer can write it) is left out: it could only alias a key. */
    private static void add(Map<String, Object> config, Set<String> sensors) {
        if (config == null) {
            return;
        }
        if (config.get(SENSOR_KEY) instanceof String name
                && SensorValue.NAME.matcher(name.trim()).matches()) {
            sensors.add(name.trim());
        }
        // A lineage gate's job or dataset: its reserved sensor (indexed whatever the evaluator; the reader filters).
        LineageGate.of(config).ifPresent(gate -> sensors.add(gate.subject().sensorName()));
    }
}
