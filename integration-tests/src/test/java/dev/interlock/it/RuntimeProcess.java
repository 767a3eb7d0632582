package dev.interlock.it;

import dev.interlock.local.cli.InterlockCli;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code interlock up} as a real child process on a data directory, started the way {@code ./interlock up} starts it
 * (the CLI's main class on the class path of this JVM, DynamoDB Local's native access allowed), on free ports. Its
 * endpoints are read from what it prints; {@link #kill()} is {@code kill -9}: no shutdown hook runs, nothing is
 * flushed or closed, whatever was half-written in the data directory stays so.
 */
final class RuntimeProcess implements AutoCloseable {

    private static final Pattern ENDPOINT = Pattern.compile(
            "^\\s+(API|Step Functions|Lambda, SNS, Secrets Manager, SSM)" + "\\s+(http://127\\.0\\.0\\.1:\\d+)");
    private static final Pattern RESUMED = Pattern.compile("(?m)^interlock: resumed (\\d+) execution\\(s\\)");
    private static final String RUNNING = "interlock: running";

    private final Process process;
    private final List<String> output = new CopyOnWriteArrayList<>();
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private URI api;
    private URI stepFunctions;
    private URI lambda;
    private int resumedExecutions;
    private Duration startup;

    private RuntimeProcess(Process process) {
        this.process = process;
        Thread.ofPlatform().daemon().name("interlock-up-" + process.pid()).start(() -> {
            try (BufferedReader r =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    output.add(line);
                    lines.add(line);
                }
            } catch (IOException ended) {
                // The process is gone.
            }
        });
    }

    /**
     * Starts {@code interlock up --data-dir dataDir --time-scale timeScale} on free ports, its JVM given
     * {@code jvmOptions} too (as {@code INTERLOCK_JAVA_OPTS} gives them through {@code ./interlock}), and waits until it
     * says it is running; fails with what it printed if it does not within {@code within}.
     */
    static RuntimeProcess start(Path dataDir, double timeScale, List<String> jvmOptions, Duration within)
            throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of(
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                InterlockCli.class.getName(),
                "up",
                "--data-dir",
                dataDir.toString(),
                "--time-scale",
                Double.toString(timeScale),
                "--api-port",
                "0",
                "--lambda-port",
                "0",
                "--sfn-port",
                "0",
                "--dynamodb-port",
                "0"));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("DDB_LOCAL_TELEMETRY", "0");
        // What it tells the user while starting (the executions it resumed, say) goes to its log, after what is there.
        Path log = dataDir.resolve("interlock.log");
        long logFrom = Files.exists(log) ? Files.size(log) : 0;
        Instant begin = Instant.now();
        RuntimeProcess runtime = new RuntimeProcess(builder.start());
        try {
            runtime.awaitRunning(begin, within);
            runtime.readStartupLog(log, logFrom);
        } catch (Exception | Error e) {
            runtime.close();
            throw e;
        }
        return runtime;
    }

    private void awaitRunning(Instant begin, Duration within) throws InterruptedException {
        Instant deadline = begin.plus(within);
        while (true) {
            long left = Duration.between(Instant.now(), deadline).toMillis();
            String line = left <= 0 ? null : lines.poll(left, TimeUnit.MILLISECONDS);
            if (line == null) {
                throw new AssertionError("interlock up did not say it was running within " + within
                        + (process.isAlive() ? "" : " (it exited with " + process.exitValue() + ")") + "; it printed:\n"
                        + String.join("\n", output));
            }
            Matcher endpoint = ENDPOINT.matcher(line);
            if (endpoint.find()) {
                URI uri = URI.create(endpoint.group(2));
                switch (endpoint.group(1)) {
                    case "API" -> api = uri;
                    case "Step Functions" -> stepFunctions = uri;
                    default -> lambda = uri;
                }
            } else if (line.startsWith(RUNNING)) {
                if (api == null || stepFunctions == null || lambda == null) {
                    throw new AssertionError(
                            "interlock up is running without printing its endpoints:\n" + String.join("\n", output));
                }
                startup = Duration.between(begin, Instant.now());
                return;
            }
        }
    }

    private void readStartupLog(Path log, long from) throws IOException {
        if (!Files.exists(log)) {
            return;
        }
        byte[] bytes;
        try (var channel = Files.newByteChannel(log)) {
            channel.position(from);
            bytes = java.nio.channels.Channels.newInputStream(channel).readAllBytes();
        }
        Matcher resumed = RESUMED.matcher(new String(bytes, StandardCharsets.UTF_8));
        if (resumed.find()) {
            resumedExecutions = Integer.parseInt(resumed.group(1));
        }
    }

    URI api() {
        return api;
    }

    URI stepFunctions() {
        return stepFunctions;
    }

    /** The Lambda Invoke endpoint, which also serves SNS and the AWS job fakes (Glue, EMR, …). */
    URI lambda() {
        return lambda;
    }

    /** How many executions it resumed from the data directory (as it printed). */
    int resumedExecutions() {
        return resumedExecutions;
    }

    /** From the start of the process to its "running" line. */
    Duration startup() {
        return startup;
    }

    long pid() {
        return process.pid();
    }

    /** Everything it printed so far. */
    List<String> output() {
        return List.copyOf(output);
    }

    /** {@code kill -9} ({@link Process#destroyForcibly()} is SIGKILL on Unix) and waits until it is gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            throw new AssertionError("interlock up (pid " + process.pid() + ") survived SIGKILL for a minute");
        }
    }

    /** The exit code the process ended with (137 after {@link #kill()}: 128 + SIGKILL). */
    int exitValue() {
        return process.exitValue();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
