package dev.interlock.statemachine.asl;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the npm-installed ASL tools (node_modules, installed by `npm ci` during the build) as child processes. */
final class NodeTool {

    /** The outcome of one tool run. */
    record Result(int exitCode, String stdout, String stderr) {}

    private NodeTool() {}

    static Result run(List<String> command, long timeoutSeconds) throws IOException, InterruptedException {
        Path dir = Asl.moduleDir();
        if (!Files.isDirectory(dir.resolve("node_modules"))) {
            throw new IllegalStateException(
                    "statemachine/node_modules is missing: the build runs `npm ci` in process-test-resources; "
                            + "run `./mvnw -pl statemachine verify` or `npm ci` in statemachine/");
        }
        Path stderrFile = Files.createTempFile("node-tool", ".stderr");
        try {
            Process process;
            try {
                process = new ProcessBuilder(command)
                        .directory(dir.toFile())
                        .redirectError(stderrFile.toFile())
                        .start();
            } catch (IOException e) {
                // A machine without node must fail these tests, not skip them: the cross-engine check is a
                // required part of the build and CI provides node.
                throw new IllegalStateException(
                        "cannot start `" + command.getFirst() + "` (" + e.getMessage()
                                + "): the statemachine tests need Node.js >= 20 and npm on the PATH to run the npm ASL tools"
                                + " (asl-validator, aws-local-stepfunctions); install them, then run `./mvnw -pl statemachine verify`",
                        e);
            }
            process.getOutputStream().close();
            String stdout;
            try (InputStream in = process.getInputStream()) {
                stdout = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(command + " did not finish within " + timeoutSeconds + " s");
            }
            return new Result(process.exitValue(), stdout, Files.readString(stderrFile));
        } finally {
            Files.deleteIfExists(stderrFile);
        }
    }
}
