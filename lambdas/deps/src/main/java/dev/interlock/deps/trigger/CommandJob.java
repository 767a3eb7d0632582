package dev.interlock.deps.trigger;

import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.trigger.CommandTrigger;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a local program (local runtime only): the program and its arguments as an argv list, never through a
 * shell, within the trigger's timeout, with its output captured; exit code 0 completes the run.
 */
final class CommandJob {

    /** Output kept for the error message: the end, where programs say why they failed. */
    static final int OUTPUT_TAIL_BYTES = 2048;

    private final boolean enabled;

    CommandJob(boolean enabled) {
        this.enabled = enabled;
    }

    TriggerResult start(CommandTrigger trigger) throws JobFailure {
        if (!enabled) {
            throw JobFailure.permanent("command triggers run only in the local runtime");
        }
        String program = Metadata.requireField(trigger.command(), "command", "command");
        List<String> argv = new ArrayList<>();
        argv.add(program);
        argv.addAll(trigger.args());
        Duration timeout = Duration.ofSeconds(trigger.timeoutSeconds());
        Process process = null;
        try {
            process = new ProcessBuilder(argv).redirectErrorStream(true).start();
            // No input: a program that reads stdin sees end-of-file instead of waiting until the timeout.
            process.getOutputStream().close();
        } catch (IOException e) {
            if (process != null) {
                process.destroyForcibly();
            }
            throw new JobFailure("command '" + program + "' cannot be started: " + e.getMessage(), FailureCategory.PERMANENT, e);
        }
        OutputTail tail = new OutputTail(process.getInputStream());
        Thread reader = Thread.ofVirtual().name("command-output").start(tail);
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                throw new JobFailure("command '" + program + "' did not finish within " + timeout.toSeconds() + " s",
                        FailureCategory.TIMEOUT, null);
            }
            reader.join(Duration.ofSeconds(5));
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new JobFailure("interrupted while running command '" + program + "'", FailureCategory.TRANSIENT, e);
        }
        int exit = process.exitValue();
        if (exit != 0) {
            String output = tail.text();
            throw new JobFailure("command '" + program + "' exited with " + exit + (output.isBlank() ? "" : ": " + output),
                    FailureCategory.TRANSIENT, null);
        }
        return TriggerResult.completed(Map.of(Metadata.COMMAND_EXIT_CODE, "0"));
    }

    /** Drains a process's output (so it never blocks on a full pipe) and keeps only the last bytes. */
    static final class OutputTail implements Runnable {
        private final InputStream in;
        private final ByteArrayOutputStream kept = new ByteArrayOutputStream();

        OutputTail(InputStream in) {
            this.in = in;
        }

        @Override
        public void run() {
            byte[] buffer = new byte[8192];
            try (in) {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    append(buffer, n);
                }
            } catch (IOException e) {
                // The process was killed mid-write: keep what was read and say the rest was lost.
                byte[] note = ("\n[output cut: " + e.getClass().getSimpleName() + "]").getBytes(StandardCharsets.UTF_8);
                append(note, note.length);
            }
        }

        private synchronized void append(byte[] buffer, int n) {
            kept.write(buffer, 0, n);
            if (kept.size() > 2 * OUTPUT_TAIL_BYTES) {
                byte[] all = kept.toByteArray();
                kept.reset();
                kept.write(all, all.length - OUTPUT_TAIL_BYTES, OUTPUT_TAIL_BYTES);
            }
        }

        synchronized String text() {
            byte[] all = kept.toByteArray();
            int from = Math.max(0, all.length - OUTPUT_TAIL_BYTES);
            return new String(all, from, all.length - from, StandardCharsets.UTF_8).strip();
        }
    }
}
