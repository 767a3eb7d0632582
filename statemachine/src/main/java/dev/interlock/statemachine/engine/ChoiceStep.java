package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.statemachine.model.ChoiceBranch;
import dev.interlock.statemachine.model.ChoiceState;

/** A Choice state: the first rule that matches names the next state, else Default, else States.NoChoiceMatched. */
final class ChoiceStep implements StateStep<ChoiceState> {

    private final StepSupport support;
    private final ChoiceEvaluator choices;

    ChoiceStep(StepSupport support) {
        this.support = support;
        this.choices = new ChoiceEvaluator(support.data);
    }

    @Override
    public Exit run(ChoiceState c, Entry e) {
        DataFlow data = support.data;
        JsonNode context = support.context(c.name(), e.entered(), 0, e.frame());
        JsonNode effective = data.inputPath(e.input(), c.inputPath(), context);
        String next = null;
        for (ChoiceBranch branch : c.choices()) {
            if (choices.matches(branch.rule(), effective, context)) {
                next = branch.next();
                break;
            }
        }
        if (next == null) {
            next = c.defaultState();
        }
        if (next == null) {
            throw StatesError.of(
                    StatesErrors.NO_CHOICE_MATCHED,
                    "No Matches! No choice rule of state '" + c.name() + "' matched the input " + effective);
        }
        return support.exit(e.frame(), c, data.outputPath(effective, c.outputPath(), context), next);
    }
}
