package dev.interlock.statemachine.intrinsics;

import java.math.BigDecimal;
import java.util.List;

/** A parsed intrinsic expression: a function call, a path or a literal argument. */
public sealed interface Intrinsic {

    record Call(String function, List<Intrinsic> arguments) implements Intrinsic {
        public Call {
            arguments = List.copyOf(arguments);
        }
    }

    /** A {@code $…} or {@code $$…} path argument. */
    record PathReference(String path) implements Intrinsic {}

    /** A quoted string; {@code raw} keeps escapes because States.Format must tell {@code \{} from {@code {}. */
    record StringLiteral(String value, String raw) implements Intrinsic {}

    record NumberLiteral(BigDecimal value) implements Intrinsic {}

    record BooleanLiteral(boolean value) implements Intrinsic {}

    record NullLiteral() implements Intrinsic {}
}
