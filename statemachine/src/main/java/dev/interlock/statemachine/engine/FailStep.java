package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.statemachine.model.FailState;

/** A Fail state: never exits; it throws its Error and Cause (fixed, or selected by ErrorPath and CausePath). */
final class FailStep implements StateStep<FailState> {

    private final StepSupport support;

    FailStep(StepSupport support) {
        this.support = support;
    }

    @Override
    public Exit run(FailState fail, Entry e) {
        DataFlow data = support.data;
        JsonNode context = support.context(fail.name(), e.entered(), 0, e.frame());
        JsonNode input = e.input();
        String error = fail.errorPath() != null
                ? text(data.expression(fail.errorPath(), input, context, "ErrorPath"), "ErrorPath")
                : fail.error();
        String cause = fail.causePath() != null
                ? text(data.expression(fail.causePath(), input, context, "CausePath"), "CausePath")
                : fail.cause();
        throw StatesError.of(error, cause);
    }

    private static String text(JsonNode value, String field) {
        if (!value.isTextual()) {
            throw StatesError.runtime("The " + field + " must select a string, found " + value);
        }
        return value.asText();
    }
}
