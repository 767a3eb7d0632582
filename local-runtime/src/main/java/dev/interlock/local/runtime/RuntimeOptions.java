package dev.interlock.local.runtime;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * How to run the local system: ports (0 = any free port), where to persist (null = in memory), how much faster
 * than real time waits and deadlines run, and how often the watchdog and the TTL sweeper tick (in scaled time); the
 * clock starts at {@code clockOrigin} (null: now).
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
        Instant clockOrigin) {

    /** SPEC §12 default ports, in memory, real time, watchdog every 5 minutes like the EventBridge rule. */
    public static final RuntimeOptions DEFAULTS = new RuntimeOptions(8080, 3001, 8083, 8000, null, 1.0,
            Duration.ofMinutes(5), Duration.ofMinutes(1), Duration.ofMillis(100));

    /** Options whose clock starts at the real time of start-up. */
    public RuntimeOptions(int apiPort, int lambdaPort, int stepFunctionsPort, int dynamoDbPort, Path dataDir,
                          double timeScale, Duration watchdogInterval, Duration sweepInterval, Duration streamPollInterval) {
        this(apiPort, lambdaPort, stepFunctionsPort, dynamoDbPort, dataDir, timeScale, watchdogInterval, sweepInterval,
                streamPollInterval, null);
    }

    public RuntimeOptions {
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
        return new RuntimeOptions(0, 0, 0, 0, dataDir, timeScale, Duration.ofMinutes(5), Duration.ofMinutes(1), Duration.ofMillis(50));
    }

    public RuntimeOptions withWatchdogInterval(Duration d) {
        return new RuntimeOptions(apiPort, lambdaPort, stepFunctionsPort, dynamoDbPort, dataDir, timeScale, d, sweepInterval,
                streamPollInterval, clockOrigin);
    }

    /** The same options with the product clock starting at {@code origin} (then running at the time scale). */
    public RuntimeOptions withClockOrigin(Instant origin) {
        return new RuntimeOptions(apiPort, lambdaPort, stepFunctionsPort, dynamoDbPort, dataDir, timeScale, watchdogInterval,
                sweepInterval, streamPollInterval, origin);
    }
}
