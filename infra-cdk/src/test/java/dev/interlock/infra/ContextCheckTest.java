package dev.interlock.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bad CDK context value is reported in one line, before the CDK's JavaScript runtime (jsii) starts and — through
 * {@code cdk-app.sh} — before the Maven build: the app and the script run as real processes, as {@code cdk synth}
 * runs them.
 */
class ContextCheckTest {

    /** One finished process: exit code and what it printed (stdout and stderr together). */
    private record Ran(int code, List<String> lines) {}

    private static Ran run(List<String> command, Map<String, String> env) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().remove(ContextCheck.CONTEXT_OVERFLOW);
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Ran(
                p.waitFor(), out.lines().filter(l -> !l.startsWith("WARNING:")).toList());
    }

    @Test
    void theAppReportsABadValueInOneLineWithoutStartingTheCdk(@TempDir Path tmp) throws Exception {
        Ran ran = run(
                List.of(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Djava.io.tmpdir=" + tmp,
                        "-cp",
                        System.getProperty("java.class.path"),
                        InterlockApp.class.getName()),
                Map.of(ContextCheck.CONTEXT_JSON, "{\"apiAuth\":\"cognito\",\"aws:cdk:version-reporting\":true}"));

        assertThat(ran.code()).isEqualTo(1);
        assertThat(ran.lines())
                .containsExactly("Interlock CDK app: context 'apiAuth' must be 'iam' or 'api-key', was 'cognito'");
        try (Stream<Path> left = Files.list(tmp)) {
            assertThat(left)
                    .as("jsii unpacks its runtime into java.io.tmpdir when it starts")
                    .isEmpty();
        }
    }

    @Test
    void cdkAppShChecksTheContextBeforeItBuildsAnything() throws Exception {
        Ran bad = run(
                List.of("sh", "cdk-app.sh", "--check-context"),
                Map.of(ContextCheck.CONTEXT_JSON, "{\"watchdogRateMinutes\":\"0\",\"glueJobName\":\"nightly\"}"));
        Ran good = run(
                List.of("sh", "cdk-app.sh", "--check-context"),
                Map.of(ContextCheck.CONTEXT_JSON, "{\"stackName\":\"InterlockDev\",\"glueJobNames\":[\"nightly\"]}"));

        assertThat(bad.code()).isEqualTo(1);
        assertThat(bad.lines())
                .containsExactly(
                        "Interlock CDK app: context 'glueJobName' is not an option; did you mean 'glueJobNames'?",
                        "Interlock CDK app: context 'watchdogRateMinutes' must be between 1 and 60, was 0");
        assertThat(good.code()).as(String.join("\n", good.lines())).isZero();
        assertThat(good.lines()).isEmpty();
    }

    @Test
    void theContextIsTheCliJsonPlusItsOverflowFile(@TempDir Path tmp) throws Exception {
        Path overflow = Files.writeString(tmp.resolve("context-overflow.json"), "{\"glueJobNames\":[\"a\",\"b\"]}");
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        DeploymentOptions options = ContextCheck.options(
                Map.of(
                        ContextCheck.CONTEXT_JSON,
                        "{\"deletionProtection\":false}",
                        ContextCheck.CONTEXT_OVERFLOW,
                        overflow.toString()),
                new PrintStream(err, true, StandardCharsets.UTF_8));

        assertThat(options).isNotNull();
        assertThat(options.deletionProtection()).isFalse();
        assertThat(options.jobs().glueJobNames()).containsExactly("a", "b");
        assertThat(ContextCheck.options(
                        Map.of(ContextCheck.CONTEXT_JSON, "{not json"),
                        new PrintStream(err, true, StandardCharsets.UTF_8)))
                .isNull();
        assertThat(err.toString(StandardCharsets.UTF_8))
                .startsWith("Interlock CDK app: cannot read the CDK context (CDK_CONTEXT_JSON)");
    }
}
