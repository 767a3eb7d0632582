package dev.interlock.statemachine.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/** A Choice state's Choices: each rule (a comparison, or And/Or/Not of rules) with its operand's type checked. */
final class ChoiceRuleParser {

    private final AslFields fields;

    ChoiceRuleParser(AslFields fields) {
        this.fields = fields;
    }

    List<ChoiceBranch> choices(JsonNode n, String at) {
        List<ChoiceBranch> branches = new ArrayList<>();
        JsonNode array = n.get("Choices");
        if (array == null) {
            return branches;
        }
        if (!array.isArray()) {
            fields.problem(at + ".Choices: must be an array");
            return branches;
        }
        for (int i = 0; i < array.size(); i++) {
            String ruleAt = at + ".Choices[" + i + "]";
            JsonNode r = array.get(i);
            String next = fields.text(r, "Next", ruleAt);
            if (next == null) {
                fields.problem(ruleAt + ".Next: required");
            }
            ChoiceRule rule = rule(r, ruleAt);
            if (rule != null) {
                branches.add(new ChoiceBranch(rule, next));
            }
        }
        return branches;
    }

    private ChoiceRule rule(JsonNode r, String at) {
        if (!r.isObject()) {
            fields.problem(at + ": a choice rule must be an object");
            return null;
        }
        if (r.has("And") || r.has("Or")) {
            String op = r.has("And") ? "And" : "Or";
            JsonNode array = r.get(op);
            if (!array.isArray() || array.isEmpty()) {
                fields.problem(at + "." + op + ": must be a non-empty array");
                return null;
            }
            List<ChoiceRule> rules = new ArrayList<>();
            for (int i = 0; i < array.size(); i++) {
                Optional.ofNullable(rule(array.get(i), at + "." + op + "[" + i + "]"))
                        .ifPresent(rules::add);
            }
            return op.equals("And") ? new ChoiceRule.And(rules) : new ChoiceRule.Or(rules);
        }
        if (r.has("Not")) {
            ChoiceRule inner = rule(r.get("Not"), at + ".Not");
            return inner == null ? null : new ChoiceRule.Not(inner);
        }
        String variable = fields.text(r, "Variable", at);
        ComparisonOperator.Match match = null;
        Iterator<String> names = r.fieldNames();
        while (names.hasNext()) {
            String field = names.next();
            Optional<ComparisonOperator.Match> m = ComparisonOperator.fromField(field);
            if (m.isPresent()) {
                if (match != null) {
                    fields.problem(at + ": more than one comparison operator");
                }
                match = m.get();
            }
        }
        if (variable == null) {
            fields.problem(at + ".Variable: required");
        }
        if (match == null) {
            fields.problem(at + ": no comparison operator (or And/Or/Not)");
            return null;
        }
        JsonNode operand = r.get(match.operator().fieldName(match.path()));
        String opAt = at + "." + match.operator().fieldName(match.path());
        if (match.path()) {
            if (!operand.isTextual()) {
                fields.problem(opAt + ": must be a path string");
            }
        } else {
            boolean ok = switch (match.operator().operand()) {
                case STRING, TIMESTAMP -> operand.isTextual();
                case NUMBER -> operand.isNumber();
                case BOOLEAN, TYPE_TEST -> operand.isBoolean();
            };
            if (!ok) {
                fields.problem(opAt + ": operand of the wrong JSON type: " + operand);
            }
            if (match.operator().operand() == ComparisonOperator.Operand.TIMESTAMP && operand.isTextual()) {
                try {
                    Instant.parse(operand.asText());
                } catch (DateTimeParseException e) {
                    fields.problem(opAt + ": not an RFC 3339 timestamp: " + operand.asText());
                }
            }
        }
        return new ChoiceRule.Comparison(variable, match.operator(), operand, match.path());
    }
}
