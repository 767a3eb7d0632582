package dev.interlock.model.trait;

import dev.interlock.model.json.Frozen;

import java.time.LocalDate;
import java.util.Map;

/**
 * One trait ready to evaluate (archetype ⊕ pipeline, R§1.11): the evaluator Lambda's input. {@code config} already
 * carries the injected {@code date} and {@code scheduleId}; {@code timeout} and {@code ttl} are seconds.
 */
public record ResolvedTrait(
        String pipelineId,
        String scheduleId,
        LocalDate date,
        String traitType,
        String evaluator,
        Map<String, Object> config,
        int timeout,
        int ttl,
        boolean required) {
    public ResolvedTrait {
        config = Frozen.map(config);
    }
}
