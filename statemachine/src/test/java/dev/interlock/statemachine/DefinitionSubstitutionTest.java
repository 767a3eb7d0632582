package dev.interlock.statemachine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class DefinitionSubstitutionTest {

    @Test
    void replacesKnownPlaceholdersAndReportsTheRest() {
        DefinitionSubstitution.Result result = DefinitionSubstitution.apply(
                "{\"a\":\"${OrchestratorFunctionArn}\",\"b\":\"${AlertTopicArn}\",\"c\":\"${Missing}\","
                        + "\"d\":\"States.Format('{}', $.x)\"}",
                Map.of(
                        "OrchestratorFunctionArn",
                        "arn:aws:lambda:us-east-1:1:function:orch",
                        "AlertTopicArn",
                        "arn:aws:sns:us-east-1:1:alerts$1",
                        "Unused",
                        "x"));
        assertThat(result.text())
                .isEqualTo(
                        "{\"a\":\"arn:aws:lambda:us-east-1:1:function:orch\","
                                + "\"b\":\"arn:aws:sns:us-east-1:1:alerts$1\",\"c\":\"${Missing}\",\"d\":\"States.Format('{}', $.x)\"}");
        assertThat(result.missing()).containsExactly("Missing");
        assertThat(result.unused()).containsExactly("Unused");
        assertThatThrownBy(result::requireComplete).hasMessageContaining("[Missing]");
    }

    @Test
    void completeSubstitutionReturnsTheText() {
        assertThat(DefinitionSubstitution.apply("${A}${A}", Map.of("A", "x")).requireComplete())
                .isEqualTo("xx");
    }
}
