package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.runtime.InterlockFunction;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * IAM conformance, after the end-to-end suite (failsafe runs after surefire): every AWS request the functions made in
 * their module tests and in this module's scenarios (recorded under {@code target/aws-requests}) must be allowed by that
 * function's role in the synthesized CDK template. The check is infra-cdk's {@code IamConformance} program, run from
 * infra-cdk's build output as {@code cdk synth} runs the app — this module reads infra-cdk's artifacts, not its classes.
 * Its report (violations, grants nothing used, requests per function) is printed and kept in
 * {@code target/iam-conformance/report.txt}.
 */
class IamConformanceIT {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path INFRA = ROOT.resolve("infra-cdk");

    @Test
    void everyRecordedRequestIsAllowedByItsFunctionsRole() throws Exception {
        Path classpathFile = INFRA.resolve("target").resolve("runtime-classpath.txt");
        assertThat(classpathFile)
                .as("infra-cdk's build writes its classpath; build with -am")
                .exists();
        Path out = Path.of("target", "iam-conformance").toAbsolutePath();
        Files.createDirectories(out);

        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.io.tmpdir=" + out,
                "-cp",
                INFRA.resolve("target").resolve("classes")
                        + File.pathSeparator
                        + Files.readString(classpathFile).trim(),
                "dev.interlock.infra.conformance.IamConformance",
                "--out",
                out.toString()));
        for (InterlockFunction f : InterlockFunction.values()) {
            command.addAll(List.of(
                    "--recordings",
                    ROOT.resolve("lambdas")
                            .resolve(f.moduleName())
                            .resolve("target")
                            .resolve("aws-requests")
                            .toString()));
        }
        command.addAll(List.of(
                "--recordings",
                Path.of("target", "aws-requests").toAbsolutePath().toString()));

        ProcessBuilder pb = new ProcessBuilder(command)
                .directory(INFRA.toFile())
                .redirectErrorStream(true)
                .redirectOutput(out.resolve("output.txt").toFile());
        Path cache = INFRA.resolve("target").resolve("cdk-cache");
        pb.environment().put("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20");
        pb.environment()
                .put("JSII_RUNTIME_PACKAGE_CACHE_ROOT", cache.resolve("jsii").toString());
        pb.environment().put("CDK_HOME", cache.resolve("home").toString());
        pb.environment().put("CDK_DISABLE_VERSION_CHECK", "1");
        Process process = pb.start();
        boolean finished = process.waitFor(15, TimeUnit.MINUTES);
        if (!finished) {
            process.destroyForcibly();
        }
        String output = read(out.resolve("output.txt"));
        System.out.println(output);
        assertThat(finished).as("the check finished; output:\n%s", output).isTrue();
        assertThat(process.exitValue())
                .as("IAM conformance (exit 1: a request is not allowed, 2: nothing recorded):\n%s", output)
                .isZero();
    }

    private static String read(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file) : "";
    }
}
