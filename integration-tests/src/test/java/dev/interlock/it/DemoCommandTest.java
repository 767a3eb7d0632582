package dev.interlock.it;

import dev.interlock.local.cli.InterlockCli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The README's run command, {@code interlock up --demo}, runs the cascade to completion and narrates it. */
class DemoCommandTest {

    @Test
    void theDemoRunsSilverThenGoldToCompletion(@TempDir Path dir) throws Exception {
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = new CommandLine(new InterlockCli()).execute("up", "--demo", "--exit-after-demo",
                    "--api-port", "0", "--lambda-port", "0", "--sfn-port", "0", "--dynamodb-port", "0",
                    "--log-file", dir.resolve("functions.log").toString());
        } finally {
            System.setOut(original);
        }
        String out = captured.toString(StandardCharsets.UTF_8);
        original.println(out);

        assertThat(code).isZero();
        assertThat(out).contains("interlock: ready in", "READINESS_CHECKED        NOT_READY", "READINESS_CHECKED        READY",
                "CASCADE_NOTIFIED", "done: gold-orders completed after silver-orders cascaded to it",
                "jobs triggered: [silver-orders, gold_orders]");
        assertThat(out).containsPattern("Web UI +http://127\\.0\\.0\\.1:\\d+/ui/")
                .containsPattern("watch it in the web UI: http://127\\.0\\.0\\.1:\\d+/ui/");
        assertThat(out.indexOf("NOT_READY")).isLessThan(out.indexOf("READY (every required trait passed)"));
        assertThat(out).doesNotContain("{\"timestamp\"");
        assertThat(Files.readString(dir.resolve("functions.log"))).contains("\"logger\":\"orchestrator\"");
    }
}
