package dev.interlock.model.pipeline;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.interlock.model.json.Frozen;
import java.util.Map;

/**
 * A pipeline's override of one trait (value of {@code traits.<traitType>}): evaluator locator, config merged key by
 * key over the archetype default, and ttl/timeout in seconds (0 keeps the archetype default).
 *
 * @param headers request headers of an HTTP evaluator (templates: execution values and credential references, resolved
 *                by the evaluator at call time)
 */
public record TraitConfig(
        String evaluator,
        Map<String, Object> config,
        int ttl,
        int timeout,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, String> headers) {
    public TraitConfig {
        config = Frozen.map(config);
        headers = Frozen.map(headers);
    }

    /** An override without evaluator headers. */
    public TraitConfig(String evaluator, Map<String, Object> config, int ttl, int timeout) {
        this(evaluator, config, ttl, timeout, Map.of());
    }
}
