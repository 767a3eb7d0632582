package dev.interlock.model.pipeline;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.interlock.model.json.Frozen;
import java.util.Map;
import java.util.Optional;

/**
 * A pipeline's override of one trait (value of {@code traits.<traitType>}): evaluator locator, config merged key by
 * key over the archetype default, and ttl/timeout in seconds (0 keeps the archetype default).
 *
 * @param headers  request headers of an HTTP evaluator (templates: execution values and credential references, resolved
 *                 by the evaluator at call time)
 * @param required whether the trait blocks readiness when it does not pass: {@code false} makes an archetype's
 *                 required trait optional (evaluated, shown, a warning when it fails, never blocking), {@code true}
 *                 an optional one required; null keeps the archetype's word
 */
public record TraitConfig(
        String evaluator,
        Map<String, Object> config,
        int ttl,
        int timeout,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, String> headers,
        @JsonInclude(JsonInclude.Include.NON_NULL) Boolean required) {
    public TraitConfig {
        config = Frozen.map(config);
        headers = Frozen.map(headers);
    }

    /** An override without evaluator headers. */
    public TraitConfig(String evaluator, Map<String, Object> config, int ttl, int timeout) {
        this(evaluator, config, ttl, timeout, Map.of());
    }

    /** An override that keeps the archetype's required/optional word. */
    public TraitConfig(
            String evaluator, Map<String, Object> config, int ttl, int timeout, Map<String, String> headers) {
        this(evaluator, config, ttl, timeout, headers, null);
    }

    /** The pipeline this trait waits for ({@code config.upstreamPipeline}), trimmed; empty when it names none. */
    public Optional<String> upstreamPipeline() {
        return text(PipelineConfig.UPSTREAM_PIPELINE);
    }

    /** The upstream schedule it names ({@code config.upstreamSchedule}), trimmed; empty when it names none. */
    public Optional<String> upstreamSchedule() {
        return text(PipelineConfig.UPSTREAM_SCHEDULE);
    }

    private Optional<String> text(String key) {
        return config.get(key) instanceof String text && !text.isBlank() ? Optional.of(text.trim()) : Optional.empty();
    }
}
