package dev.interlock.statemachine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AslDefinitionTest {

    private static Map<String, String> allValues() {
        Map<String, String> values = new HashMap<>();
        for (String name : AslDefinition.PLACEHOLDERS) {
            values.put(name, "arn:test:" + name);
        }
        return values;
    }

    @Test
    void loadsTheDefinitionWithItsPlaceholders() {
        String text = AslDefinition.load();
        assertThat(text).contains("\"StartAt\": \"InitDefaults\"", "${OrchestratorFunctionArn}", "${AlertTopicArn}");
    }

    @Test
    void substitutesEveryPlaceholder() {
        String text = AslDefinition.substitute(allValues());
        assertThat(text)
                .doesNotContain("${")
                .contains("\"arn:test:TriggerFunctionArn\"", "\"TopicArn\": \"arn:test:AlertTopicArn\"");
    }

    @Test
    void reportsEveryMissingPlaceholderAtOnce() {
        Map<String, String> values = allValues();
        values.remove("AlertTopicArn");
        values.remove("EvaluatorFunctionArn");
        assertThatThrownBy(() -> AslDefinition.substitute(values))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("No value for ASL placeholder(s): [AlertTopicArn, EvaluatorFunctionArn]");
    }

    @Test
    void leavesDollarSignsInReplacementValuesAlone() {
        assertThat(AslDefinition.substitute("{\"a\":\"${X}\"}", Map.of("X", "$1\\x")))
                .isEqualTo("{\"a\":\"$1\\x\"}");
    }
}
