package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.statemachine.model.ChoiceRule;
import dev.interlock.statemachine.model.ComparisonOperator;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Evaluates Choice rules the way Step Functions does: a comparison whose value has the wrong JSON type is
 * simply false, but a Variable (or operand path) that selects nothing is a States.Runtime error.
 */
final class ChoiceEvaluator {

    private final DataFlow data;

    ChoiceEvaluator(DataFlow data) {
        this.data = data;
    }

    boolean matches(ChoiceRule rule, JsonNode input, JsonNode context) {
        return switch (rule) {
            case ChoiceRule.And and -> and.rules().stream().allMatch(r -> matches(r, input, context));
            case ChoiceRule.Or or -> or.rules().stream().anyMatch(r -> matches(r, input, context));
            case ChoiceRule.Not not -> !matches(not.rule(), input, context);
            case ChoiceRule.Comparison c -> compare(c, input, context);
        };
    }

    private boolean compare(ChoiceRule.Comparison c, JsonNode input, JsonNode context) {
        Optional<JsonNode> found = data.read(c.variable(), input, context);
        ComparisonOperator op = c.operator();
        if (op == ComparisonOperator.IS_PRESENT) {
            return found.isPresent() == c.operand().asBoolean();
        }
        JsonNode value = found.orElseThrow(() -> StatesError.runtime(
                "Invalid path '" + c.variable() + "': The choice state's condition path references an invalid value."));
        if (op.operand() == ComparisonOperator.Operand.TYPE_TEST) {
            boolean actual = switch (op) {
                case IS_NULL -> value.isNull();
                case IS_NUMERIC -> value.isNumber();
                case IS_STRING -> value.isTextual();
                case IS_BOOLEAN -> value.isBoolean();
                case IS_TIMESTAMP -> timestamp(value) != null;
                default -> throw new IllegalStateException("not a type test: " + op);
            };
            return actual == c.operand().asBoolean();
        }
        JsonNode expected = c.operandIsPath()
                ? data.read(c.operand().asText(), input, context)
                        .orElseThrow(() -> StatesError.runtime(
                                "Invalid path '" + c.operand().asText()
                                        + "': The choice state's condition path references an" + " invalid value."))
                : c.operand();
        return switch (op.operand()) {
            case STRING -> value.isTextual() && expected.isTextual() && strings(op, value.asText(), expected.asText());
            case NUMBER ->
                value.isNumber()
                        && expected.isNumber()
                        && ordered(op, value.decimalValue().compareTo(expected.decimalValue()));
            case BOOLEAN -> value.isBoolean() && expected.isBoolean() && value.asBoolean() == expected.asBoolean();
            case TIMESTAMP -> {
                Instant left = timestamp(value);
                Instant right = timestamp(expected);
                yield left != null && right != null && ordered(op, left.compareTo(right));
            }
            case TYPE_TEST -> throw new IllegalStateException("handled above");
        };
    }

    private static boolean strings(ComparisonOperator op, String value, String expected) {
        if (op == ComparisonOperator.STRING_MATCHES) {
            return wildcard(expected).matcher(value).matches();
        }
        return ordered(op, value.compareTo(expected));
    }

    /** Maps a compareTo result onto the Equals/LessThan/GreaterThan/…Equals family of the operator. */
    private static boolean ordered(ComparisonOperator op, int comparison) {
        String name = op.aslName();
        if (name.endsWith("LessThanEquals")) {
            return comparison <= 0;
        }
        if (name.endsWith("GreaterThanEquals")) {
            return comparison >= 0;
        }
        if (name.endsWith("LessThan")) {
            return comparison < 0;
        }
        if (name.endsWith("GreaterThan")) {
            return comparison > 0;
        }
        return comparison == 0;
    }

    /** StringMatches: {@code *} matches any run of characters; {@code \*} and {@code \\} are literals. */
    private static Pattern wildcard(String pattern) {
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '\\' && i + 1 < pattern.length()) {
                regex.append(Pattern.quote(String.valueOf(pattern.charAt(++i))));
            } else if (c == '*') {
                regex.append(".*");
            } else {
                regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString(), Pattern.DOTALL);
    }

    /** An RFC 3339 timestamp, or null when the value is not one. */
    static Instant timestamp(JsonNode value) {
        if (!value.isTextual()) {
            return null;
        }
        try {
            return OffsetDateTime.parse(value.asText()).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
