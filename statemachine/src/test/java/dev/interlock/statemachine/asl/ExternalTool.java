package dev.interlock.statemachine.asl;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * An independent tool a test needs beside the JDK and node (python3 with moto). Where one is missing the test says so
 * plainly: skipped on a developer's machine, failed in CI ({@code CI=true}), so an independent check never disappears
 * silently.
 */
final class ExternalTool {

    private ExternalTool() {
    }

    static void require(boolean present, String missing) {
        if (present) {
            return;
        }
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new AssertionError(missing + ": CI must have it");
        }
        Assumptions.assumeTrue(false, missing + ": skipped here; CI runs it");
    }

    /** Whether a command exits 0 within a minute. */
    static boolean succeeds(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return false;
            }
            return process.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
