package dev.interlock.infra;

import dev.interlock.testing.ExternalTools;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs cfn-lint, AWS's CloudFormation linter, on a synthesized template with this module's {@code .cfnlintrc.yaml}
 * (the warnings we accept, each with its reason). Where cfn-lint is not installed the caller is skipped with a message
 * locally and fails in CI ({@link ExternalTools}).
 */
final class CfnLint {

    static final Path CONFIG = Path.of(".cfnlintrc.yaml");

    private CfnLint() {}

    /** The installed cfn-lint's version line; skips or fails the test when there is none. */
    static String version() {
        var version = ExternalTools.output(List.of("cfn-lint", "--version"));
        ExternalTools.require(
                version.isPresent(),
                "cfn-lint is not installed (pinned in infra-cdk/src/test/python/requirements.txt)");
        return version.get();
    }

    /** Every finding (errors, warnings, informational) as {@code file:line:column:…:RULE:message} lines. */
    static List<String> findings(Path template) {
        version();
        List<String> command = List.of(
                "cfn-lint", "--config-file", CONFIG.toString(), "--format", "parseable", "--", template.toString());
        try {
            Process process =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(10, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new AssertionError("cfn-lint did not finish on " + template);
            }
            // Exit codes are a bitmask of what was found (2 errors, 4 warnings, 8 informational); 1 is a crash.
            if ((process.exitValue() & 1) != 0) {
                throw new AssertionError("cfn-lint failed on " + template + ":\n" + out);
            }
            List<String> findings = new ArrayList<>();
            out.lines().filter(l -> !l.isBlank()).forEach(findings::add);
            return findings;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The template file of a synthesized stack, in its cloud assembly. */
    static Path templateOf(InterlockStack stack) {
        return Path.of(software.amazon.awscdk.Stage.of(stack).getOutdir()).resolve(stack.getTemplateFile());
    }
}
