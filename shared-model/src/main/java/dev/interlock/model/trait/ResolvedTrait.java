package dev.interlock.model.trait;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.interlock.model.json.Frozen;
import java.time.LocalDate;
import java.util.Map;

/**
 * One trait ready to evaluate (archetype ⊕ pipeline, {@code TraitResolution}): the evaluator Lambda's input. {@code config} already
 * carries the injected {@code date} and {@code scheduleId}; {@code timeout} and {@code ttl} are seconds.
 *
 * @param headers an HTTP evaluator's header templates, still unresolved (they travel through the execution history;
 *                the evaluator resolves credentials at call time)
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
        boolean required,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, String> headers) {
    public ResolvedTrait {
        config = Frozen.map(config);
        headers = Frozen.map(headers);
    }

    /** A trait without evaluator headers. */
    public ResolvedTrait(
            String pipelineId,
            String scheduleId,
            LocalDate date,
            String traitType,
            String evaluator,
            Map<String, Object> config,
            int timeout,
            int ttl,
            boolean required) {
        this(pipelineId, scheduleId, date, traitType, evaluator, config, timeout, ttl, required, Map.of());
    }
}
