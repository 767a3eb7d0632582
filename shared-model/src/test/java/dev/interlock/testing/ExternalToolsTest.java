package dev.interlock.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

class ExternalToolsTest {

    @Test
    void aMissingToolSkipsWithItsNameLocallyAndFailsInCi() {
        assertThatThrownBy(() -> ExternalTools.require(false, "cfn-lint is not installed", false))
                .isInstanceOf(TestAbortedException.class)
                .hasMessageContaining("cfn-lint is not installed: skipped here");
        assertThatThrownBy(() -> ExternalTools.require(false, "cfn-lint is not installed", true))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("cfn-lint is not installed: CI must have it");
        assertThatCode(() -> ExternalTools.require(true, "present", true)).doesNotThrowAnyException();
    }

    @Test
    void aCommandThatCannotRunHasNoOutput() {
        assertThat(ExternalTools.output(List.of("interlock-no-such-tool-anywhere", "--version")))
                .isEmpty();
        assertThat(ExternalTools.output(List.of("java", "-version"))).isPresent();
    }
}
