package dev.interlock.evaluation;

import dev.interlock.model.json.Frozen;
import java.util.Map;

/** The document an external evaluator (HTTP or Lambda) receives: {@code {pipelineId, traitType, config}}. */
record EvaluatorInput(String pipelineId, String traitType, Map<String, Object> config) {
    public EvaluatorInput {
        // Always an object on the wire, so evaluators never have to handle a missing config.
        config = Frozen.map(config);
    }
}
