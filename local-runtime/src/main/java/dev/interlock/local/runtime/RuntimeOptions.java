package dev.interlock.local.runtime;

import dev.interlock.local.jobs.StartHolds;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * How to run the local system: ports (0 = any free port), where to persist (null = in memory), how much faster
 * than real time waits and deadlines run, how often the watchdog and the TTL sweeper tick (in scaled time), and
 * where the clock starts (null = now; tests that need a given local time, e.g. just before midnight in Tokyo).
 *
 * @param secretsFile the local stand-in for Secrets Manager and SSM Parameter Store (null = none; see
 *                    {@link dev.interlock.local.aws.LocalSecrets})
 * @param environment variables added to the functions' environment and to what {@code LocalSecrets} reads, over the
 *                    process's own (e.g. {@code INTERLOCK_SECRET_HOSTS}, {@code INTERLOCK_AIRFLOW_TOKEN})
 * @param jobStartHolds the job fakes' test hook ({@link StartHolds}): tests pass one instance to every runtime they
 *                      restart, so a hold is in place before a resumed execution's first call; null = a fresh one that
 *                      holds nothing
 */
public record RuntimeOptions(
        int apiPort,
        int lambdaPort,
        int stepFunctionsPort,
        int dynamoDbPort,
        Path dataDir,
        double timeScale,
        Duration watchdogInterval,
        Duration sweepInterval,
        Duration streamPollInterval,
        Path secretsFile,
        Map<String, String> environment,
        Instant clockStart,
        StartHolds jobStartHolds) {

    /** The README's default ports, in memory, real time, watchdog every 5 minutes like the EventBridge rule. */
    public static final RuntimeOptions DEFAULTS = new RuntimeOptions(
            8080, 3001, 8083, 8000, null, 1.0, Duration.ofMinutes(5), Duration.ofMinutes(1), Duration.ofMillis(100));

    /** Options without a secrets file or added environment, whose clock starts now and whose job fakes hold nothing. */
    public RuntimeOptions(
            int apiPort,
            int lambdaPort,
            int stepFunctionsPort,
            int dynamoDbPort,
            Path dataDir,
            double timeScale,
            Duration watchdogInterval,
            Duration sweepInterval,
            Duration streamPollInterval) {
        this(
                apiPort,
                lambdaPort,
                stepFunctionsPort,
                dynamoDbPort,
                dataDir,
                timeScale,
                watchdogInterval,
                sweepInterval,
                streamPollInterval,
                null,
                Map.of(),
                null,
                null);
    }

    public RuntimeOptions {
        environment = environment == null ? Map.of() : Map.copyOf(environment);
        jobStartHolds = jobStartHolds == null ? new StartHolds() : jobStartHolds;
        if (timeScale <= 0 || Double.isNaN(timeScale) || Double.isInfinite(timeScale)) {
            throw new IllegalArgumentException("--time-scale must be a positive number, got " + timeScale);
        }
        for (int port : new int[] {apiPort, lambdaPort, stepFunctionsPort, dynamoDbPort}) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("ports must be between 0 and 65535, got " + port);
            }
        }
    }

    /** Every port chosen by the system: for tests that run several runtimes or share the machine. */
    public static RuntimeOptions ephemeral(Path dataDir, double timeScale) {
        return new RuntimeOptions(
                0, 0, 0, 0, dataDir, timeScale, Duration.ofMinutes(5), Duration.ofMinutes(1), Duration.ofMillis(50));
    }

    public RuntimeOptions withWatchdogInterval(Duration d) {
        return with(o -> o.watchdogInterval = d);
    }

    /** These options with the TTL sweeper ticking every {@code d} (scaled). */
    public RuntimeOptions withSweepInterval(Duration d) {
        return with(o -> o.sweepInterval = d);
    }

    /** With a secrets file and variables added to the functions' environment. */
    public RuntimeOptions withSecrets(Path file, Map<String, String> variables) {
        return with(o -> {
            o.secretsFile = file;
            o.environment = variables;
        });
    }

    /** With {@code variables} added to the functions' environment (e.g. where OpenLineage events go). */
    public RuntimeOptions withEnvironment(Map<String, String> variables) {
        return with(o -> o.environment = variables);
    }

    /** These options with the clock starting at {@code start} (null: now). */
    public RuntimeOptions withClockStart(Instant start) {
        return with(o -> o.clockStart = start);
    }

    /** These options with the job fakes' start calls held by {@code holds} (a test's, shared across its restarts). */
    public RuntimeOptions withJobStartHolds(StartHolds holds) {
        return with(o -> o.jobStartHolds = holds);
    }

    /** A copy of these options with {@code change} applied: the one place the withers call the constructor. */
    private RuntimeOptions with(java.util.function.Consumer<Copy> change) {
        Copy o = new Copy(this);
        change.accept(o);
        return new RuntimeOptions(
                apiPort,
                lambdaPort,
                stepFunctionsPort,
                dynamoDbPort,
                dataDir,
                timeScale,
                o.watchdogInterval,
                o.sweepInterval,
                streamPollInterval,
                o.secretsFile,
                o.environment,
                o.clockStart,
                o.jobStartHolds);
    }

    /** The options a wither may change. */
    private static final class Copy {
        Duration watchdogInterval;
        Duration sweepInterval;
        Path secretsFile;
        Map<String, String> environment;
        Instant clockStart;
        StartHolds jobStartHolds;

        Copy(RuntimeOptions from) {
            watchdogInterval = from.watchdogInterval;
            sweepInterval = from.sweepInterval;
            secretsFile = from.secretsFile;
            environment = from.environment;
            clockStart = from.clockStart;
            jobStartHolds = from.jobStartHolds;
        }
    }
}
