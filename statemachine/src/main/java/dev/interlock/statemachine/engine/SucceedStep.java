package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.statemachine.model.SucceedState;

/** A Succeed state: ends its graph with its effective input (InputPath, then OutputPath). */
final class SucceedStep implements StateStep<SucceedState> {

    private final StepSupport support;

    SucceedStep(StepSupport support) {
        this.support = support;
    }

    @Override
    public Exit run(SucceedState s, Entry e) {
        DataFlow data = support.data;
        JsonNode context = support.context(s.name(), e.entered(), 0, e.frame());
        return support.exit(
                e.frame(),
                s,
                data.outputPath(data.inputPath(e.input(), s.inputPath(), context), s.outputPath(), context),
                null);
    }
}
