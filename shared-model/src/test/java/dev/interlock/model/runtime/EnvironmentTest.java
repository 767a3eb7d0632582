package dev.interlock.model.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class EnvironmentTest {

    @Test
    void listsEveryMissingRequiredVariableOfAFunctionAtOnce() {
        Environment env = Environment.of(Map.of());
        assertThatThrownBy(() -> env.requireFor(InterlockFunction.STREAM_ROUTER))
                .isInstanceOfSatisfying(
                        Environment.MissingConfigurationException.class,
                        e -> assertThat(e.missing())
                                .containsExactlyInAnyOrder(EnvVar.TABLE_NAME, EnvVar.STATE_MACHINE_ARN))
                .hasMessageContaining("TABLE_NAME")
                .hasMessageContaining("STATE_MACHINE_ARN");
    }

    @Test
    void aFunctionWithItsVariablesSetPasses() {
        Environment env = Environment.of(
                Map.of("TABLE_NAME", "t", "STATE_MACHINE_ARN", "arn:aws:states:us-east-1:1:stateMachine:x"));
        env.requireFor(InterlockFunction.STREAM_ROUTER);
        assertThat(env.getInt(EnvVar.STALE_MARKER_DAYS)).isEqualTo(2);
    }

    @Test
    void blankCountsAsUnsetAndBadNumbersNameTheVariable() {
        Environment env = Environment.of(Map.of("TABLE_NAME", "  ", "STALE_MARKER_DAYS", "two"));
        assertThat(env.find(EnvVar.TABLE_NAME)).isEmpty();
        assertThatThrownBy(() -> env.getInt(EnvVar.STALE_MARKER_DAYS)).hasMessageContaining("STALE_MARKER_DAYS");
        assertThat(env.with(Map.of("STALE_MARKER_DAYS", "5")).getInt(EnvVar.STALE_MARKER_DAYS))
                .isEqualTo(5);
    }

    @Test
    void lazyCreatesOnceOnFirstUse() {
        AtomicInteger calls = new AtomicInteger();
        Lazy<String> lazy = Lazy.of(() -> "v" + calls.incrementAndGet());
        assertThat(lazy.isCreated()).isFalse();
        assertThat(lazy.get()).isEqualTo("v1");
        assertThat(lazy.get()).isEqualTo("v1");
        assertThat(calls).hasValue(1);
        assertThat(lazy.isCreated()).isTrue();
    }
}
