package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.local.cli.InterlockCli;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's run command, {@code interlock up --demo}: it runs the cascade to completion and tells it in short lines
 * (the functions' JSON logs go to the file it names), and Ctrl-C in the middle stops it in one line.
 */
class DemoCommandTest {

    private static final String[] EPHEMERAL = {
        "--api-port", "0", "--lambda-port", "0", "--sfn-port", "0", "--dynamodb-port", "0"
    };

    private static String runInProcess(String... args) {
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = InterlockCli.run(args);
        } finally {
            System.setOut(original);
        }
        String out = captured.toString(StandardCharsets.UTF_8);
        original.println(out);
        assertThat(code).as(out).isZero();
        return out;
    }

    private static String[] demo(Path log, String... extra) {
        List<String> args = new ArrayList<>(List.of("up", "--demo", "--exit-after-demo", "--log-file", log.toString()));
        args.addAll(List.of(EPHEMERAL));
        args.addAll(List.of(extra));
        return args.toArray(String[]::new);
    }

    @Test
    void theDemoRunsSilverThenGoldToCompletionInShortLines(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("functions.log");

        String out = runInProcess(demo(log));

        assertThat(out)
                .contains(
                        "interlock: starting; function logs go to " + log + " (--verbose shows them here)",
                        "interlock: ready in",
                        "API            http://127.0.0.1:",
                        "silver-orders",
                        "NOT READY (blocking: ",
                        "READY (every required trait passed)",
                        "triggered: job started",
                        "cascade: cascade markers written for gold-orders",
                        "evaluation requested (cascade marker)",
                        "daily    COMPLETED\n",
                        "demo: done: gold-orders completed after silver-orders cascaded to it",
                        "jobs triggered: [silver-orders, gold_orders]");
        assertThat(out)
                .containsPattern("Web UI +http://127\\.0\\.0\\.1:\\d+/ui/")
                .containsPattern("watch it in the web UI: http://127\\.0\\.0\\.1:\\d+/ui/");
        assertThat(out.indexOf("NOT READY")).isLessThan(out.indexOf("READY (every required trait passed)"));
        assertThat(out).doesNotContain("{\"timestamp\"", "Initializing DynamoDB Local");
        assertThat(out.lines().filter(l -> l.contains("TRAIT_EVALUATED")))
                .as("one line per verdict, not per trait")
                .isEmpty();
        String functionLogs = Files.readString(log);
        assertThat(functionLogs).contains("\"logger\":\"orchestrator\"", "Initializing DynamoDB Local");
    }

    @Test
    void verboseShowsTheFunctionsLogsOnTheTerminalToo(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("functions.log");

        String out = runInProcess(demo(log, "--verbose"));

        assertThat(out)
                .contains(
                        "interlock: starting; function logs go to " + log + "\n",
                        "{\"timestamp\"",
                        "\"logger\":\"orchestrator\"",
                        "demo: done: gold-orders completed");
        assertThat(Files.readString(log)).contains("\"logger\":\"orchestrator\"");
    }

    /** Ctrl-C is a signal to a real process: the CLI runs as one, exactly as {@code ./interlock} starts it. */
    @Test
    void ctrlCDuringTheDemoStopsWithOneLineAndExitCode130(@TempDir Path dir) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                InterlockCli.class.getName(),
                "up",
                "--demo",
                "--log-file",
                dir.resolve("functions.log").toString()));
        command.addAll(List.of(EPHEMERAL));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader r =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    lines.add(line);
                }
            } catch (IOException closed) {
                // The process ended.
            }
        });
        List<String> before = new ArrayList<>();
        try {
            Instant deadline = Instant.now().plus(Duration.ofMinutes(3));
            while (before.stream().noneMatch(l -> l.contains("NOT READY"))) {
                String line =
                        lines.poll(Duration.between(Instant.now(), deadline).toMillis(), TimeUnit.MILLISECONDS);
                assertThat(line)
                        .as("the demo reached its first verdict; so far: " + before)
                        .isNotNull();
                before.add(line);
            }
            String signal = sigintIgnoredHere() ? "TERM" : "INT";
            assertThat(new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                            .start()
                            .waitFor())
                    .isZero();

            assertThat(process.waitFor(2, TimeUnit.MINUTES))
                    .as("stopped after the signal")
                    .isTrue();
            reader.join(Duration.ofSeconds(30));
            List<String> after = new ArrayList<>();
            lines.drainTo(after);

            assertThat(process.exitValue()).isEqualTo(signal.equals("INT") ? 130 : 143);
            assertThat(after)
                    .as("what Ctrl-C printed")
                    .contains("interlock: interrupted; stopping")
                    .hasSizeLessThanOrEqualTo(4);
            assertThat(String.join("\n", after)).doesNotContain("\tat ", "Exception", "Caused by");
        } finally {
            process.destroyForcibly();
        }
    }

    /**
     * A JVM started with SIGINT ignored (a build in a non-interactive shell's background) passes that on, and its child
     * would then not see Ctrl-C; SIGTERM takes the same shutdown path, so it stands in.
     */
    private static boolean sigintIgnoredHere() throws IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.exists(status)) {
            return false;
        }
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("SigIgn:")) {
                return (Long.parseUnsignedLong(line.substring(7).trim(), 16) & 0x2) != 0;
            }
        }
        return false;
    }
}
