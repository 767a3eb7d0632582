package dev.interlock.deps.outbound;

import dev.interlock.deps.Environment;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class InterlockVariablesTest {

    private final InterlockVariables variables = new InterlockVariables(Map.of(
            "INTERLOCK_TOKEN", "t0k3n",
            "INTERLOCK_PRICE", "$5",
            "AWS_SECRET_ACCESS_KEY", "wJalrXUtnFEMI",
            "HOME", "/root"));

    @Test
    void expandsBothFormsOfInterlockVariables() throws Exception {
        assertThat(variables.expand("Bearer $INTERLOCK_TOKEN")).isEqualTo("Bearer t0k3n");
        assertThat(variables.expand("Bearer ${INTERLOCK_TOKEN}!")).isEqualTo("Bearer t0k3n!");
        assertThat(variables.expand("{\"p\":\"${INTERLOCK_PRICE}\"}")).isEqualTo("{\"p\":\"$5\"}");
    }

    @Test
    void neverExpandsAnythingElseEvenWhenItIsSet() throws Exception {
        assertThat(variables.expand("${AWS_SECRET_ACCESS_KEY}")).isEqualTo("${AWS_SECRET_ACCESS_KEY}");
        assertThat(variables.expand("$AWS_SECRET_ACCESS_KEY and $HOME")).isEqualTo("$AWS_SECRET_ACCESS_KEY and $HOME");
        assertThat(variables.expand("${date} costs $ 5 $")).isEqualTo("${date} costs $ 5 $");
    }

    @Test
    void readsOnlyInterlockVariablesFromTheEnvironment() throws Exception {
        Environment environment = Environment.of(Map.of("INTERLOCK_TOKEN", "abc", "AWS_SECRET_ACCESS_KEY", "s3cr3t"));
        assertThat(environment.startingWith(InterlockVariables.PREFIX)).containsOnlyKeys("INTERLOCK_TOKEN");
        InterlockVariables fromEnv = InterlockVariables.from(environment);
        assertThat(fromEnv.expand("$INTERLOCK_TOKEN/${AWS_SECRET_ACCESS_KEY}")).isEqualTo("abc/${AWS_SECRET_ACCESS_KEY}");
    }

    @Test
    void anUnsetInterlockVariableIsAnErrorNamingIt() {
        assertThatThrownBy(() -> variables.expand("Bearer ${INTERLOCK_MISSING}"))
                .isInstanceOf(OutboundException.Refused.class)
                .hasMessage("variable INTERLOCK_MISSING is referenced but not set");
    }

    @Test
    void expandsHeaderValuesAndKeepsTheirOrder() throws Exception {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Authorization", "Bearer $INTERLOCK_TOKEN");
        headers.put("X-Key", "${AWS_SECRET_ACCESS_KEY}");
        assertThat(variables.expandValues(headers)).containsExactly(
                Map.entry("Authorization", "Bearer t0k3n"), Map.entry("X-Key", "${AWS_SECRET_ACCESS_KEY}"));
        assertThat(variables.expandValues(null)).isEmpty();
    }
}
