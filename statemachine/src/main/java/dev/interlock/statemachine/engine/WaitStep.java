package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.statemachine.model.WaitFor;
import dev.interlock.statemachine.model.WaitState;
import java.time.Instant;

/**
 * A Wait state: waits on the engine clock until its deadline. A top-level Wait journals the deadline, so a resumed
 * execution waits for the same one ({@link StateStep.Entry#waitUntil()}) rather than computing it again.
 */
final class WaitStep implements StateStep<WaitState> {

    private final StepSupport support;

    WaitStep(StepSupport support) {
        this.support = support;
    }

    @Override
    public Exit run(WaitState w, Entry e) {
        DataFlow data = support.data;
        Frame f = e.frame();
        Instant entered = e.entered();
        Instant journaledUntil = e.waitUntil();
        JsonNode context = support.context(w.name(), entered, 0, f);
        JsonNode effective = data.inputPath(e.input(), w.inputPath(), context);
        Instant until = journaledUntil != null
                ? journaledUntil
                : switch (w.waitFor()) {
                    case WaitFor.Seconds s -> entered.plusSeconds(s.seconds());
                    case WaitFor.Timestamp t -> t.timestamp();
                    case WaitFor.SecondsPath p -> {
                        JsonNode seconds = data.require(p.path(), effective, context, "SecondsPath");
                        if (!seconds.isIntegralNumber() || seconds.asLong() < 0) {
                            throw StatesError.runtime(
                                    "The SecondsPath parameter does not reference a valid non-negative" + " integer: "
                                            + seconds);
                        }
                        yield entered.plusSeconds(seconds.asLong());
                    }
                    case WaitFor.TimestampPath p -> {
                        Instant at =
                                ChoiceEvaluator.timestamp(data.require(p.path(), effective, context, "TimestampPath"));
                        if (at == null) {
                            throw StatesError.runtime("The TimestampPath parameter does not reference a valid ISO-8601"
                                    + " timestamp: " + p.path());
                        }
                        yield at;
                    }
                };
        if (journaledUntil == null && f.topLevel) {
            support.execution.checkpoint(new JournalEntry.WaitUntil(until));
        }
        if (until.isAfter(support.clock.now())) {
            f.token.sleepUntil(support.clock, until);
        }
        return support.exit(
                f, w, data.outputPath(effective, w.outputPath(), context), StepSupport.next(w.transition()));
    }
}
