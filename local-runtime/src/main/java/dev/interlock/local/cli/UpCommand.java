package dev.interlock.local.cli;

import dev.interlock.local.alerts.AlertSink;
import dev.interlock.local.demo.Demo;
import dev.interlock.local.demo.FakeJobServer;
import dev.interlock.local.runtime.LocalRuntime;
import dev.interlock.local.runtime.PortInUseException;
import dev.interlock.local.runtime.ProductionFunctions;
import dev.interlock.local.runtime.RuntimeOptions;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code interlock up}: runs the whole system in the foreground on 127.0.0.1 until interrupted, telling the user one
 * line per evaluation, verdict, trigger, completion and alert; the functions' JSON logs go to a file of this instance.
 * {@code --demo} also registers a silver -> gold cascade and drives it to completion.
 */
@Command(
        name = "up",
        description = {
            "Run Interlock locally: DynamoDB Local, the state machine, the six functions and the API.",
            "Prints its endpoints, then one line per evaluation, verdict, trigger, completion and alert;",
            "the functions' JSON logs go to a log file of this instance (--verbose shows them here too)."
        })
final class UpCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--demo",
            description = "Register a silver -> gold cascade with a fake job server and drive it to completion.")
    boolean demo;

    @Option(
            names = "--exit-after-demo",
            description = "With --demo: stop once the demo finished (exit 0 when it succeeded).")
    boolean exitAfterDemo;

    @Option(
            names = "--time-scale",
            paramLabel = "N",
            description = "Run waits, deadlines and retries N times faster (default 1; 60 with --demo).")
    Double timeScale;

    @Option(
            names = "--log-file",
            paramLabel = "FILE",
            description =
                    "Where the functions' JSON logs go (default: interlock.log in --data-dir, else a new interlock-<pid>-<n>.log in the temp directory).")
    Path logFile;

    @Option(names = "--verbose", description = "Show the functions' JSON logs on the terminal too.")
    boolean verbose;

    @Option(
            names = "--data-dir",
            paramLabel = "DIR",
            description =
                    "Keep the table, stream checkpoints, alerts and executions here across restarts; a restart continues running executions (default: in memory).")
    Path dataDir;

    @Option(
            names = "--secrets-file",
            paramLabel = "FILE",
            description = "Serve the pipelines' Secrets Manager (secret:) and SSM (ssm:) "
                    + "references from this YAML/JSON file with keys 'secrets' and 'parameters' (see the README).")
    Path secretsFile;

    @Option(names = "--api-port", defaultValue = "8080", description = "API port (default ${DEFAULT-VALUE}).")
    int apiPort;

    @Option(
            names = "--lambda-port",
            defaultValue = "3001",
            description = "Lambda Invoke (and SNS) port (default ${DEFAULT-VALUE}).")
    int lambdaPort;

    @Option(
            names = "--sfn-port",
            defaultValue = "8083",
            description = "Step Functions port (default ${DEFAULT-VALUE}).")
    int sfnPort;

    @Option(names = "--dynamodb-port", defaultValue = "8000", description = "DynamoDB port (default ${DEFAULT-VALUE}).")
    int dynamoDbPort;

    /** Set by the shutdown hook: failures after it are the system going away, not news. */
    private volatile boolean stopping;

    @Override
    public Integer call() throws Exception {
        double scale = timeScale != null ? timeScale : demo ? 60.0 : 1.0;
        checkOptions(scale);
        PrintStream terminal = System.out;
        try (DataDirLock lock = DataDirLock.take(dataDir);
                FunctionLogs logs = FunctionLogs.redirect(logFile(), dataDir != null && logFile == null, verbose)) {
            terminal.println("interlock: starting; function logs go to " + logs.path()
                    + (verbose ? "" : " (--verbose shows them here)"));
            return run(scale, terminal);
        }
    }

    private int run(double scale, PrintStream terminal) throws Exception {
        RuntimeOptions options = new RuntimeOptions(
                        apiPort,
                        lambdaPort,
                        sfnPort,
                        dynamoDbPort,
                        dataDir,
                        scale,
                        Duration.ofMinutes(5),
                        Duration.ofMinutes(1),
                        Duration.ofMillis(100))
                .withSecrets(secretsFile, java.util.Map.of());
        Instant begin = Instant.now();
        LocalRuntime runtime;
        try {
            runtime = LocalRuntime.start(
                    options,
                    new ProductionFunctions(),
                    line -> System.out.println("interlock: " + line),
                    alert -> printAlert(terminal, alert),
                    terminal::println);
        } catch (PortInUseException e) {
            throw new CliFailure(
                    e.getMessage() + "\n  another 'interlock up' may be running; choose another port with "
                            + e.port().option() + " (0 picks a free one)",
                    CliFailure.FAILED,
                    e);
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(
                () -> {
                    stopping = true;
                    terminal.println("interlock: interrupted; stopping");
                    runtime.close();
                    stopped.countDown();
                },
                "interlock-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            runtime.awaitHealthy(Duration.ofSeconds(60));
            terminal.printf(
                    """
                    interlock: ready in %.1f s (time scale %s)
                      API            %s   (GET /health, /pipelines, /status, /alerts …)
                      Web UI         %s/ui/
                      Step Functions %s
                      Lambda, SNS, Secrets Manager, SSM %s
                      DynamoDB       %s   (%s)
                    """,
                    Duration.between(begin, Instant.now()).toMillis() / 1000.0,
                    scaleText(scale),
                    runtime.apiEndpoint(),
                    runtime.apiEndpoint(),
                    runtime.stepFunctionsEndpoint(),
                    runtime.lambdaEndpoint(),
                    runtime.dynamoDbEndpoint(),
                    dataDir == null ? "in memory" : "data in " + dataDir);
            if (demo) {
                boolean ok;
                try (FakeJobServer jobs = FakeJobServer.start(0, runtime.clock(), Duration.ofMinutes(2))) {
                    ok = new Demo(runtime, jobs, terminal).run(Duration.ofSeconds(55));
                    terminal.println("interlock: watch it in the web UI: " + runtime.apiEndpoint() + "/ui/");
                    if (exitAfterDemo) {
                        return ok ? 0 : CliFailure.FAILED;
                    }
                    terminal.println("interlock: the demo is over; the system keeps running — Ctrl-C to stop.");
                    stopped.await();
                }
                return CliFailure.INTERRUPTED;
            }
            terminal.println("interlock: running — Ctrl-C to stop.");
            stopped.await();
            return CliFailure.INTERRUPTED;
        } catch (Exception | Error e) {
            if (stopping) {
                // Ctrl-C closed the servers under a request in flight; the hook already said what happens.
                return CliFailure.INTERRUPTED;
            }
            throw e;
        } finally {
            if (!stopping) {
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException shuttingDown) {
                    // The JVM is already stopping: the hook runs anyway.
                }
                runtime.close();
            }
        }
    }

    /** Values picocli can parse but the runtime cannot use are command-line mistakes too (exit 2). */
    private void checkOptions(double scale) {
        if (!(scale > 0) || Double.isInfinite(scale)) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    "invalid value for --time-scale: " + timeScale + " (must be a positive number, e.g. 60)");
        }
        checkPort("--api-port", apiPort);
        checkPort("--lambda-port", lambdaPort);
        checkPort("--sfn-port", sfnPort);
        checkPort("--dynamodb-port", dynamoDbPort);
        if (dataDir != null) {
            if (Files.exists(dataDir) && !Files.isDirectory(dataDir)) {
                throw new CommandLine.ParameterException(
                        spec.commandLine(), "invalid value for --data-dir: " + dataDir + " is a file, not a directory");
            }
            try {
                Files.createDirectories(dataDir);
            } catch (IOException | SecurityException e) {
                throw new CommandLine.ParameterException(
                        spec.commandLine(),
                        "invalid value for --data-dir: cannot create " + dataDir + " (" + reason(e) + ")");
            }
            if (!Files.isWritable(dataDir)) {
                throw new CommandLine.ParameterException(
                        spec.commandLine(), "invalid value for --data-dir: " + dataDir + " is not writable");
            }
        }
    }

    private void checkPort(String option, int port) {
        if (port < 0 || port > 65535) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    "invalid value for " + option + ": " + port + " (must be 0-65535; 0 picks a free port)");
        }
    }

    private Path logFile() throws IOException {
        return logFile != null ? logFile : defaultLogFile(dataDir);
    }

    /**
     * The data directory's {@code interlock.log} (one {@code up} per data directory), else a new file in the temp
     * directory for this instance alone: two instances never write the same log.
     */
    static Path defaultLogFile(Path dataDir) throws IOException {
        if (dataDir != null) {
            return dataDir.resolve("interlock.log");
        }
        return Files.createTempFile("interlock-" + ProcessHandle.current().pid() + "-", ".log");
    }

    private static String scaleText(double scale) {
        return scale == Math.rint(scale) ? Long.toString((long) scale) : Double.toString(scale);
    }

    private static String reason(Exception e) {
        return e instanceof java.nio.file.AccessDeniedException
                ? "permission denied"
                : e instanceof java.nio.file.FileAlreadyExistsException
                        ? "a file is in the way"
                        : String.valueOf(e.getMessage());
    }

    private static void printAlert(PrintStream terminal, AlertSink.ReceivedAlert alert) {
        terminal.println("ALERT " + alert.subject() + ": "
                + alert.message().path("message").asText(alert.message().toString()));
    }

    /** One {@code up} per data directory: two would write the same table files and stream checkpoints. */
    private static final class DataDirLock implements AutoCloseable {
        private final FileChannel channel;
        private final FileLock lock;

        private DataDirLock(FileChannel channel, FileLock lock) {
            this.channel = channel;
            this.lock = lock;
        }

        static DataDirLock take(Path dataDir) throws IOException {
            if (dataDir == null) {
                return new DataDirLock(null, null);
            }
            FileChannel channel = FileChannel.open(
                    dataDir.resolve("interlock.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null;
            }
            if (lock == null) {
                channel.close();
                throw new CliFailure("--data-dir " + dataDir
                        + " is used by another 'interlock up'; stop it first or use another directory");
            }
            return new DataDirLock(channel, lock);
        }

        @Override
        public void close() throws IOException {
            if (channel != null) {
                lock.release();
                channel.close();
            }
        }
    }
}
