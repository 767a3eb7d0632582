package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.statemachine.model.ParallelState;
import java.time.Instant;

/**
 * A Parallel state: runs each of its branches on the same input, each on its own line, and collects their outputs in
 * order; its attempts run under its Retry and Catch rules.
 */
final class ParallelStep implements StateStep<ParallelState> {

    private final StepSupport support;
    private final DataFlow data;
    private final RetryAndCatch recovery;
    private final FanOut fanOut;
    private final Interpreter interpreter;

    ParallelStep(StepSupport support, RetryAndCatch recovery, FanOut fanOut, Interpreter interpreter) {
        this.support = support;
        this.data = support.data;
        this.recovery = recovery;
        this.fanOut = fanOut;
        this.interpreter = interpreter;
    }

    @Override
    public Exit run(ParallelState p, Entry e) {
        return recovery.run(
                p,
                p.transition(),
                e.input(),
                e.frame(),
                e.start(),
                retryCount -> parallel(p, e.input(), e.entered(), retryCount, e.frame()),
                null);
    }

    private JsonNode parallel(ParallelState p, JsonNode input, Instant entered, int retryCount, Frame f) {
        JsonNode context = support.context(p.name(), entered, retryCount, f);
        JsonNode effective = data.inputPath(input, p.inputPath(), context);
        JsonNode branchInput = p.parameters() != null ? data.template(p.parameters(), effective, context) : effective;
        support.emit(f, HistoryEventType.ParallelStateStarted, null);
        long startedId = f.lastEventId;
        JsonNode results = fanOut.run(
                p.branches().size(),
                0,
                f,
                (index, token) -> {
                    try {
                        return interpreter.run(
                                p.branches().get(index), branchInput, Frame.inner(token, startedId, f.mapItem));
                    } catch (StatesError e) {
                        // A branch keeps its own error name for Retry/Catch; only a nameless failure becomes
                        // BranchFailed.
                        throw e.error() == null && !e.terminal()
                                ? StatesError.of(StatesErrors.BRANCH_FAILED, e.cause())
                                : e;
                    }
                },
                HistoryEventType.ParallelStateFailed);
        support.emit(f, HistoryEventType.ParallelStateSucceeded, null);
        JsonNode selected = p.resultSelector() != null ? data.template(p.resultSelector(), results, context) : results;
        return data.outputPath(data.resultPath(input, selected, p.resultPath()), p.outputPath(), context);
    }
}
