package dev.interlock.model.archetype;

import dev.interlock.model.json.Frozen;
import java.util.Map;

/**
 * One trait an archetype declares, with its default config, result TTL and evaluator timeout (seconds), and
 * optionally a default evaluator locator (the bundled archetypes leave it to the pipeline).
 */
public record TraitDefinition(
        String type,
        String description,
        String evaluator,
        Map<String, Object> defaultConfig,
        int defaultTtl,
        int defaultTimeout) {
    public TraitDefinition {
        defaultConfig = Frozen.map(defaultConfig);
    }
}
