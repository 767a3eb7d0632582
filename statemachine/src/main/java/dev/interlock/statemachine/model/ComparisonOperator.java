package dev.interlock.statemachine.model;

import java.util.Arrays;
import java.util.Optional;

/** The data-test operators of a Choice rule; the {@code …Path} variants share an operator with a path flag. */
public enum ComparisonOperator {
    STRING_EQUALS("StringEquals", Operand.STRING, true),
    STRING_LESS_THAN("StringLessThan", Operand.STRING, true),
    STRING_GREATER_THAN("StringGreaterThan", Operand.STRING, true),
    STRING_LESS_THAN_EQUALS("StringLessThanEquals", Operand.STRING, true),
    STRING_GREATER_THAN_EQUALS("StringGreaterThanEquals", Operand.STRING, true),
    STRING_MATCHES("StringMatches", Operand.STRING, false),
    NUMERIC_EQUALS("NumericEquals", Operand.NUMBER, true),
    NUMERIC_LESS_THAN("NumericLessThan", Operand.NUMBER, true),
    NUMERIC_GREATER_THAN("NumericGreaterThan", Operand.NUMBER, true),
    NUMERIC_LESS_THAN_EQUALS("NumericLessThanEquals", Operand.NUMBER, true),
    NUMERIC_GREATER_THAN_EQUALS("NumericGreaterThanEquals", Operand.NUMBER, true),
    BOOLEAN_EQUALS("BooleanEquals", Operand.BOOLEAN, true),
    TIMESTAMP_EQUALS("TimestampEquals", Operand.TIMESTAMP, true),
    TIMESTAMP_LESS_THAN("TimestampLessThan", Operand.TIMESTAMP, true),
    TIMESTAMP_GREATER_THAN("TimestampGreaterThan", Operand.TIMESTAMP, true),
    TIMESTAMP_LESS_THAN_EQUALS("TimestampLessThanEquals", Operand.TIMESTAMP, true),
    TIMESTAMP_GREATER_THAN_EQUALS("TimestampGreaterThanEquals", Operand.TIMESTAMP, true),
    IS_NULL("IsNull", Operand.TYPE_TEST, false),
    IS_PRESENT("IsPresent", Operand.TYPE_TEST, false),
    IS_NUMERIC("IsNumeric", Operand.TYPE_TEST, false),
    IS_STRING("IsString", Operand.TYPE_TEST, false),
    IS_BOOLEAN("IsBoolean", Operand.TYPE_TEST, false),
    IS_TIMESTAMP("IsTimestamp", Operand.TYPE_TEST, false);

    /** What the operator compares; type tests take a boolean operand saying whether the type is expected. */
    public enum Operand {
        STRING,
        NUMBER,
        BOOLEAN,
        TIMESTAMP,
        TYPE_TEST
    }

    private final String aslName;
    private final Operand operand;
    private final boolean hasPathVariant;

    ComparisonOperator(String aslName, Operand operand, boolean hasPathVariant) {
        this.aslName = aslName;
        this.operand = operand;
        this.hasPathVariant = hasPathVariant;
    }

    public String aslName() {
        return aslName;
    }

    public Operand operand() {
        return operand;
    }

    public boolean hasPathVariant() {
        return hasPathVariant;
    }

    /** The ASL field name for this operator, with {@code Path} appended for the path variant. */
    public String fieldName(boolean path) {
        return path ? aslName + "Path" : aslName;
    }

    /** Looks up a field name such as {@code NumericLessThanPath}; empty when it is not a comparison operator. */
    public static Optional<Match> fromField(String field) {
        for (ComparisonOperator op : values()) {
            if (op.aslName.equals(field)) {
                return Optional.of(new Match(op, false));
            }
            if (op.hasPathVariant && field.equals(op.aslName + "Path")) {
                return Optional.of(new Match(op, true));
            }
        }
        return Optional.empty();
    }

    /** Every field name a Choice rule may use for a comparison. */
    public static String[] allFieldNames() {
        return Arrays.stream(values())
                .flatMap(op -> op.hasPathVariant
                        ? java.util.stream.Stream.of(op.aslName, op.aslName + "Path")
                        : java.util.stream.Stream.of(op.aslName))
                .toArray(String[]::new);
    }

    /** An operator together with whether its operand is a path. */
    public record Match(ComparisonOperator operator, boolean path) {}
}
