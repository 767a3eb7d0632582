package dev.interlock.evaluator;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.interlock.evaluation.TraitEvaluation;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.runtime.InterlockFunction;
import dev.interlock.model.trait.ResolvedTrait;
import dev.interlock.wiring.Deps;
import dev.interlock.wiring.priming.Priming;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;

/** Lambda entry of the evaluator: one resolved trait in, its {@link dev.interlock.model.trait.TraitVerdict} out (CONTRACT §5). */
public final class EvaluatorHandler implements RequestStreamHandler {

    private final TraitEvaluation evaluation;

    /** The Lambda entry: the container's shared lazy Deps, checked for every required variable at once. */
    public EvaluatorHandler() {
        this(Deps.forFunction(InterlockFunction.EVALUATOR));
        Priming.onInit(Deps.get(), InterlockFunction.EVALUATOR, this);
    }

    /** Over given Deps (the local runtime serves the function in process this way). */
    public EvaluatorHandler(Deps deps) {
        this(TraitEvaluation.from(deps));
    }

    public EvaluatorHandler(TraitEvaluation evaluation) {
        this.evaluation = evaluation;
    }

    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        ResolvedTrait trait = InterlockJson.json().readValue(input, ResolvedTrait.class);
        if (trait == null) {
            throw new IllegalArgumentException("evaluator input is empty; expected one resolved trait");
        }
        // The Lambda's own deadline bounds the evaluator call (the local runtime and tests may pass no context).
        Duration remaining = context == null ? null : Duration.ofMillis(context.getRemainingTimeInMillis());
        InterlockJson.json()
                .writeValue(output, evaluation.evaluate(trait, remaining).verdict());
    }
}
