package dev.interlock.statemachine.intrinsics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

class IntrinsicParserTest {

    @Test
    void parsesNestedCallsPathsAndLiterals() {
        Intrinsic.Call call = IntrinsicParser.parse(
                "States.Format('a {} b', States.ArrayGetItem($.list[0], 1), $$.Execution.Name, -2.5, true, null)");
        assertThat(call)
                .isEqualTo(new Intrinsic.Call(
                        "States.Format",
                        List.of(
                                new Intrinsic.StringLiteral("a {} b", "a {} b"),
                                new Intrinsic.Call(
                                        "States.ArrayGetItem",
                                        List.of(
                                                new Intrinsic.PathReference("$.list[0]"),
                                                new Intrinsic.NumberLiteral(new BigDecimal("1")))),
                                new Intrinsic.PathReference("$$.Execution.Name"),
                                new Intrinsic.NumberLiteral(new BigDecimal("-2.5")),
                                new Intrinsic.BooleanLiteral(true),
                                new Intrinsic.NullLiteral())));
    }

    @Test
    void stringEscapesKeepTheRawTextForFormat() {
        Intrinsic.Call call = IntrinsicParser.parse("States.Format('it\\'s \\{\\} and \\\\ ,)')");
        assertThat(call.arguments())
                .containsExactly(new Intrinsic.StringLiteral("it's {} and \\ ,)", "it\\'s \\{\\} and \\\\ ,)"));
    }

    @Test
    void pathsMayContainCommasAndParenthesesInsideBrackets() {
        Intrinsic.Call call = IntrinsicParser.parse("States.Array($['a,b'], $['c)'])");
        assertThat(call.arguments())
                .containsExactly(new Intrinsic.PathReference("$['a,b']"), new Intrinsic.PathReference("$['c)']"));
    }

    @Test
    void emptyArgumentListAndSpaces() {
        assertThat(IntrinsicParser.parse("  States.UUID( )  ")).isEqualTo(new Intrinsic.Call("States.UUID", List.of()));
    }

    @Test
    void rejectsMalformedCalls() {
        assertThatThrownBy(() -> IntrinsicParser.parse("States.Format('x'"))
                .isInstanceOf(IntrinsicException.class)
                .hasMessageContaining("expected ')'");
        assertThatThrownBy(() -> IntrinsicParser.parse("States.Format('x)")).hasMessageContaining("unterminated");
        assertThatThrownBy(() -> IntrinsicParser.parse("Format('x')")).hasMessageContaining("States.<Function>");
        assertThatThrownBy(() -> IntrinsicParser.parse("States.Array(1) extra")).hasMessageContaining("after the call");
        assertThatThrownBy(() -> IntrinsicParser.parse("States.Array(@)")).hasMessageContaining("expected an argument");
    }
}
