package dev.interlock.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The independent tools some tests need beside the JDK (python3 with moto, cfn-lint; versions pinned in the
 * {@code src/test/python/requirements.txt} of the module that uses them). Where one is missing, a test says so plainly
 * and is skipped on a developer's machine, but fails in CI ({@code CI=true}), where {@code .ci/run} has already
 * checked that every tool is installed: an independent check must never disappear silently.
 */
public final class ExternalTools {

    private ExternalTools() {}

    /** Whether this build runs in CI. */
    public static boolean inCi() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }

    /** Skips the test (locally) or fails it (in CI) unless {@code present}, naming what is missing and where it is pinned. */
    public static void require(boolean present, String missing) {
        require(present, missing, inCi());
    }

    static void require(boolean present, String missing, boolean ci) {
        if (present) {
            return;
        }
        if (ci) {
            throw new AssertionError(missing + ": CI must have it (.ci/run checks the tools before the build)");
        }
        Assumptions.assumeTrue(false, missing + ": skipped here; CI runs it");
    }

    /** The standard output of a command that exits 0 within a minute, or empty (not installed, or failed). */
    public static Optional<String> output(List<String> command) {
        try {
            Process process =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return Optional.empty();
            }
            return process.exitValue() == 0 ? Optional.of(out) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
