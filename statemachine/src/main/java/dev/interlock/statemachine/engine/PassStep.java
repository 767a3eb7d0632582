package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.statemachine.model.PassState;

/** A Pass state: its Result (or Parameters, or its effective input) placed by ResultPath. */
final class PassStep implements StateStep<PassState> {

    private final StepSupport support;

    PassStep(StepSupport support) {
        this.support = support;
    }

    @Override
    public Exit run(PassState p, Entry e) {
        DataFlow data = support.data;
        JsonNode context = support.context(p.name(), e.entered(), 0, e.frame());
        JsonNode input = e.input();
        JsonNode effective = data.inputPath(input, p.inputPath(), context);
        JsonNode result = p.result() != null
                ? p.result()
                : p.parameters() != null ? data.template(p.parameters(), effective, context) : effective;
        JsonNode output = data.outputPath(data.resultPath(input, result, p.resultPath()), p.outputPath(), context);
        return support.exit(e.frame(), p, output, StepSupport.next(p.transition()));
    }
}
