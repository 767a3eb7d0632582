package dev.interlock.statemachine.asl;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The definition passes asl-validator, a schema and JSONPath validator written independently of this project. */
class AslValidatorTest {

    @Test
    void aslValidatorAcceptsTheDefinition() throws Exception {
        NodeTool.Result result = validate(Asl.aslFile());
        assertThat(result.exitCode()).as(result.stdout() + result.stderr()).isZero();
        assertThat(result.stdout()).contains("is valid");
    }

    @Test
    void aslValidatorRejectsADanglingTransitionSoItsVerdictMeansSomething() throws Exception {
        Path broken = Files.createTempFile("broken", ".asl.json");
        try {
            Files.writeString(
                    broken,
                    Asl.definition()
                            .toString()
                            .replace("\"Next\":\"CheckExclusion\"", "\"Next\":\"CheckExclusionTypo\""));
            NodeTool.Result result = validate(broken);
            assertThat(result.exitCode()).isNotZero();
            assertThat(result.stdout() + result.stderr()).contains("CheckExclusionTypo");
        } finally {
            Files.deleteIfExists(broken);
        }
    }

    private static NodeTool.Result validate(Path file) throws Exception {
        return NodeTool.run(List.of("npx", "--no-install", "asl-validator", "--json-path", file.toString()), 120);
    }
}
