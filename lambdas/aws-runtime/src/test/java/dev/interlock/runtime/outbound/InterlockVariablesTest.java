package dev.interlock.runtime.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.runtime.Environment;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InterlockVariablesTest {

    private final InterlockVariables variables = new InterlockVariables(Map.of(
            "INTERLOCK_TOKEN", "t0k3n",
            "INTERLOCK_PRICE", "$5",
            "AWS_SECRET_ACCESS_KEY", "wJalrXUtnFEMI",
            "HOME", "/root"));

    @Test
    void readsInterlockVariables() throws Exception {
        assertThat(variables.value("INTERLOCK_TOKEN")).isEqualTo("t0k3n");
        assertThat(variables.value("INTERLOCK_PRICE")).isEqualTo("$5");
    }

    @Test
    void neverReadsAnythingElseEvenWhenItIsSet() {
        assertThatThrownBy(() -> variables.value("AWS_SECRET_ACCESS_KEY"))
                .isInstanceOf(OutboundException.CredentialUnavailable.class)
                .hasMessage("variable AWS_SECRET_ACCESS_KEY is referenced but not set");
        assertThatThrownBy(() -> variables.value("HOME")).isInstanceOf(OutboundException.CredentialUnavailable.class);
    }

    @Test
    void readsOnlyInterlockVariablesFromTheEnvironment() throws Exception {
        Environment environment = Environment.of(Map.of("INTERLOCK_TOKEN", "abc", "AWS_SECRET_ACCESS_KEY", "s3cr3t"));
        assertThat(environment.startingWith(InterlockVariables.PREFIX)).containsOnlyKeys("INTERLOCK_TOKEN");
        assertThat(InterlockVariables.from(environment).value("INTERLOCK_TOKEN"))
                .isEqualTo("abc");
    }

    @Test
    void anUnsetInterlockVariableIsAPermanentErrorNamingIt() {
        assertThatThrownBy(() -> variables.value("INTERLOCK_MISSING"))
                .isInstanceOf(OutboundException.CredentialUnavailable.class)
                .hasMessage("variable INTERLOCK_MISSING is referenced but not set")
                .satisfies(e -> assertThat(((OutboundException) e).category()).isEqualTo(FailureCategory.PERMANENT));
    }
}
