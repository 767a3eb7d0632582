package dev.interlock.evaluator;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.trait.ResolvedTrait;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/** Lambda entry of the evaluator: one resolved trait in, its result out (CONTRACT §5). */
public final class EvaluatorHandler implements RequestStreamHandler {

    private final TraitEvaluation evaluation;

    public EvaluatorHandler(TraitEvaluation evaluation) {
        this.evaluation = evaluation;
    }

    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        ResolvedTrait trait = InterlockJson.json().readValue(input, ResolvedTrait.class);
        if (trait == null) {
            throw new IllegalArgumentException("evaluator input is empty; expected one resolved trait");
        }
        InterlockJson.json().writeValue(output, EvaluatorResponse.of(evaluation.evaluate(trait)));
    }
}
