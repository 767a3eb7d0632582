package dev.interlock.deps.trigger;

import dev.interlock.deps.outbound.GuardedHttp;
import dev.interlock.deps.outbound.HostResolver;
import dev.interlock.deps.outbound.UrlGuard;
import dev.interlock.deps.testing.TestTemplates;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.trigger.CommandTrigger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class CommandJobTest {

    private static TriggerRunners runners(boolean allowCommand) {
        return new TriggerRunners(() -> null, () -> null, () -> null, () -> null, () -> null,
                new GuardedHttp(new UrlGuard(false, HostResolver.system()), Clock.systemUTC(), NoWait.BACKOFF),
                TestTemplates.none(), Clock.systemUTC(), allowCommand);
    }

    private static TriggerResult run(boolean allowCommand, CommandTrigger trigger) {
        return runners(allowCommand).start(new TriggerRequest("orders", "daily", "2026-03-01", "run-42", trigger));
    }

    @Test
    void refusedUnlessTheRunnerWasCreatedWithCommandsEnabled() {
        assertThat(run(false, new CommandTrigger("true", List.of(), 5)))
                .isEqualTo(TriggerResult.failed("command triggers run only in the local runtime", FailureCategory.PERMANENT));
    }

    @Test
    void runsTheArgvListWithoutAShell(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("out.txt");
        // A shell would split "a b", expand $HOME and `id`, and run the rm: as argv they are plain text.
        TriggerResult result = run(true, new CommandTrigger("/usr/bin/env",
                List.of("printf", "%s|", "a b", "$HOME", "; rm -rf /", "`id`"), 5));
        assertThat(result).isEqualTo(TriggerResult.completed(Map.of("command_exit_code", "0")));

        TriggerResult written = run(true, new CommandTrigger("/bin/cp", List.of("/dev/null", out.toString()), 5));
        assertThat(written.status()).isEqualTo(TriggerStatus.COMPLETED);
        assertThat(Files.exists(out)).isTrue();
    }

    @Test
    void aNonZeroExitFailsWithTheEndOfTheOutput() {
        // The shell here is the configured program itself, chosen by the test, not something the runner adds.
        TriggerResult failed = run(true, new CommandTrigger("/bin/sh",
                List.of("-c", "echo starting; echo 'fatal: disk full' >&2; exit 3"), 5));
        assertThat(failed).isEqualTo(TriggerResult.failed("command '/bin/sh' exited with 3: starting\nfatal: disk full",
                FailureCategory.TRANSIENT));

        TriggerResult missing = run(true, new CommandTrigger("/bin/ls", List.of("/definitely/not/here"), 5));
        assertThat(missing.error()).startsWith("command '/bin/ls' exited with 2: ").contains("/definitely/not/here");
    }

    @Test
    void aMissingProgramIsPermanent() {
        TriggerResult result = run(true, new CommandTrigger("/no/such/program", List.of(), 5));
        assertThat(result.failureCategory()).isEqualTo(FailureCategory.PERMANENT);
        assertThat(result.error()).startsWith("command '/no/such/program' cannot be started: ");
        assertThat(run(true, new CommandTrigger(" ", List.of(), 5)))
                .isEqualTo(TriggerResult.failed("command trigger needs 'command'", FailureCategory.PERMANENT));
    }

    @Test
    void aCommandThatOutlivesItsTimeoutIsKilledAndTimesOut() {
        TriggerResult result = run(true, new CommandTrigger("/bin/sleep", List.of("30"), 1));
        assertThat(result).isEqualTo(TriggerResult.failed("command '/bin/sleep' did not finish within 1 s", FailureCategory.TIMEOUT));
    }

    @Test
    void theOutputTailKeepsOnlyTheLastBytes() {
        byte[] big = ("x".repeat(10_000) + "the end").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        CommandJob.OutputTail tail = new CommandJob.OutputTail(new java.io.ByteArrayInputStream(big));
        tail.run();
        assertThat(tail.text()).hasSize(CommandJob.OUTPUT_TAIL_BYTES).endsWith("the end");
    }
}
