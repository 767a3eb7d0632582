package dev.interlock.statemachine.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/** A boolean expression of a Choice state: a comparison or a combination of rules. */
public sealed interface ChoiceRule {

    record And(List<ChoiceRule> rules) implements ChoiceRule {
        public And {
            rules = List.copyOf(rules);
        }
    }

    record Or(List<ChoiceRule> rules) implements ChoiceRule {
        public Or {
            rules = List.copyOf(rules);
        }
    }

    record Not(ChoiceRule rule) implements ChoiceRule {}

    /**
     * {@code Variable} compared with a literal {@code operand}, or with the value at the path in {@code operand}
     * (a text node) when {@code operandIsPath}.
     */
    record Comparison(String variable, ComparisonOperator operator, JsonNode operand, boolean operandIsPath)
            implements ChoiceRule {}
}
