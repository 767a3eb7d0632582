package dev.interlock.model.trait;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EvaluatorLocatorTest {

    @Test
    void parsesTheFourAcceptedForms() {
        assertThat(EvaluatorLocator.parse("builtin:sensor-freshness"))
                .isEqualTo(new EvaluatorLocator.Builtin(BuiltinEvaluator.SENSOR_FRESHNESS));
        assertThat(EvaluatorLocator.parse("lambda:arn:aws:lambda:eu-west-1:123:function:check:live"))
                .isEqualTo(new EvaluatorLocator.LambdaFunction("arn:aws:lambda:eu-west-1:123:function:check:live"));
        assertThat(EvaluatorLocator.parse("https://eval.example.com/freshness"))
                .isEqualTo(new EvaluatorLocator.Http(URI.create("https://eval.example.com/freshness")));
        assertThat(EvaluatorLocator.parse("checks/freshness"))
                .isEqualTo(new EvaluatorLocator.RelativePath("checks/freshness"));
        assertThat(EvaluatorLocator.parse("/freshness")).isEqualTo(new EvaluatorLocator.RelativePath("/freshness"));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                " ",
                "ftp://x/y",
                "file:/etc/passwd",
                "s3://bucket/key",
                "builtin:",
                "builtin:nope",
                "lambda:",
                "lambda:has space",
                "http://",
                "../escape",
                "a/../b",
                "with space",
                "https://exa mple.com"
            })
    void rejectsEverythingElse(String text) {
        assertThatThrownBy(() -> EvaluatorLocator.parse(text)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anUnknownBuiltinNamesTheKnownOnes() {
        assertThatThrownBy(() -> EvaluatorLocator.parse("builtin:upstream-job-log"))
                .hasMessage(
                        "unknown builtin evaluator 'upstream-job-log'; allowed: upstream-run-log, sensor-threshold, "
                                + "sensor-freshness, lineage-complete, always-pass, always-fail");
    }
}
