package dev.interlock.local.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.runtime.InterlockVersion;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class CliVersionTest {

    /** The version is the build's (the stack's InterlockVersion output), not a string kept beside the pom. */
    @Test
    void versionPrintsTheBuildsVersion() {
        PrintStream original = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = InterlockCli.run("--version");
        } finally {
            System.setOut(original);
        }
        assertThat(code).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8).strip()).isEqualTo("interlock " + InterlockVersion.current());
        assertThat(InterlockVersion.current()).matches("\\d+\\.\\d+\\.\\d+(-[A-Za-z0-9.]+)?");
    }
}
