package dev.interlock.model.pipeline;

import dev.interlock.model.json.Frozen;

import java.util.Map;

/**
 * A pipeline's override of one trait (value of {@code traits.<traitType>}): evaluator locator, config merged key by
 * key over the archetype default, and ttl/timeout in seconds (0 keeps the archetype default).
 */
public record TraitConfig(String evaluator, Map<String, Object> config, int ttl, int timeout) {
    public TraitConfig {
        config = Frozen.map(config);
    }
}
