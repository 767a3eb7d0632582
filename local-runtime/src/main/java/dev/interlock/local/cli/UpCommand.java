package dev.interlock.local.cli;

import dev.interlock.local.alerts.AlertSink;
import dev.interlock.local.demo.Demo;
import dev.interlock.local.demo.FakeJobServer;
import dev.interlock.local.runtime.LocalRuntime;
import dev.interlock.local.runtime.ProductionFunctions;
import dev.interlock.local.runtime.RuntimeOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * {@code interlock up}: runs the whole system in the foreground on 127.0.0.1 until interrupted; {@code --demo}
 * also registers a silver -> gold cascade and drives it to completion, narrating as it goes.
 */
@Command(name = "up", description = "Run Interlock locally: DynamoDB Local, the state machine, the six functions and the API.")
final class UpCommand implements Callable<Integer> {

    @Option(names = "--demo", description = "Register a silver -> gold cascade with a fake job server and drive it to completion.")
    boolean demo;

    @Option(names = "--exit-after-demo", description = "With --demo: stop once the demo finished (exit 0 when it succeeded).")
    boolean exitAfterDemo;

    @Option(names = "--time-scale", description = "Run waits, deadlines and retries N times faster (default 1; 60 with --demo).")
    Double timeScale;

    @Option(names = "--log-file", description = "Write the functions' JSON logs here instead of the terminal (default with --demo: interlock-demo.log in the temp dir).")
    Path logFile;

    @Option(names = "--data-dir", description = "Persist the table and stream checkpoints here (default: in memory).")
    Path dataDir;

    @Option(names = "--api-port", defaultValue = "8080", description = "API port (default ${DEFAULT-VALUE}).")
    int apiPort;

    @Option(names = "--lambda-port", defaultValue = "3001", description = "Lambda Invoke (and SNS) port (default ${DEFAULT-VALUE}).")
    int lambdaPort;

    @Option(names = "--sfn-port", defaultValue = "8083", description = "Step Functions port (default ${DEFAULT-VALUE}).")
    int sfnPort;

    @Option(names = "--dynamodb-port", defaultValue = "8000", description = "DynamoDB port (default ${DEFAULT-VALUE}).")
    int dynamoDbPort;

    @Override
    public Integer call() throws Exception {
        double scale = timeScale != null ? timeScale : demo ? 60.0 : 1.0;
        RuntimeOptions options = new RuntimeOptions(apiPort, lambdaPort, sfnPort, dynamoDbPort, dataDir, scale,
                Duration.ofMinutes(5), Duration.ofMinutes(1), Duration.ofMillis(100));
        Instant begin = Instant.now();
        Path logs = logFile != null ? logFile
                : demo ? Path.of(System.getProperty("java.io.tmpdir"), "interlock-demo.log") : null;
        if (logs != null) {
            LogRouting.install(logs);
            System.out.println("interlock: function logs go to " + logs);
        }
        LocalRuntime runtime = LocalRuntime.start(options, new ProductionFunctions(),
                line -> System.out.println("interlock: " + line), UpCommand::printAlert);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("interlock: shutting down");
            runtime.close();
            stopped.countDown();
        }, "interlock-shutdown"));
        runtime.awaitHealthy(Duration.ofSeconds(60));
        System.out.printf("""
                interlock: ready in %.1f s (time scale %s)
                  API            %s   (GET /health, /pipelines, /status, /alerts …)
                  Web UI         %s/ui/
                  Step Functions %s
                  Lambda, SNS    %s
                  DynamoDB       %s
                """, Duration.between(begin, Instant.now()).toMillis() / 1000.0, scale, runtime.apiEndpoint(),
                runtime.apiEndpoint(), runtime.stepFunctionsEndpoint(), runtime.lambdaEndpoint(), runtime.dynamoDbEndpoint());
        if (demo) {
            boolean ok;
            try (FakeJobServer jobs = FakeJobServer.start(0, runtime.clock(), Duration.ofMinutes(2))) {
                ok = new Demo(runtime, jobs, System.out).run(Duration.ofSeconds(55));
                System.out.println("interlock: watch it in the web UI: " + runtime.apiEndpoint() + "/ui/");
                if (exitAfterDemo) {
                    return ok ? 0 : 1;
                }
                System.out.println("interlock: the demo is over; the system keeps running — Ctrl-C to stop.");
                stopped.await();
            }
            return 0;
        }
        System.out.println("interlock: running — Ctrl-C to stop.");
        stopped.await();
        return 0;
    }

    private static void printAlert(AlertSink.ReceivedAlert alert) {
        System.out.println("ALERT " + alert.subject() + " " + alert.message().path("message").asText(alert.message().toString()));
    }
}
