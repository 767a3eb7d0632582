package dev.interlock.it;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The fleet-sized {@code kill -9} soak (the {@code benchmarks} profile; numbers, not a test): by
 * default 240 pipelines (60 cascades {@code a → b → c, d}) on {@code interlock up} as a child process with its default
 * JVM options, SIGKILLed three times — while root jobs run, while {@code b} jobs run, while {@code c}/{@code d} jobs run
 * — and restarted each time on the same data directory (one interrupted execution's journal left ending in a torn
 * line each time, as a kill in the middle of a long line leaves it). It prints what each kill hit and how long the restart and the
 * interrupted days took, then the days, jobs started, duplicate starts, lost days, replays, re-claims, executions and
 * alerts; it exits 1 if a day was lost, a job started twice or an interrupted day alerted. See {@link KillNineFleet}.
 *
 * <p>Options: {@code --groups=60}, {@code --job-millis=2000}, {@code --time-scale=10}, {@code --kills=0,1,2} (the
 * level of each kill), {@code --within-minutes=10}, {@code --work=DIR} (the data directory's parent),
 * {@code --jvm-options="…"} (the runtime's JVM options, space-separated).
 */
public final class KillNineSoak {

    private KillNineSoak() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new HashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (!arg.startsWith("--") || eq < 0) {
                throw new IllegalArgumentException("expected --name=value, got " + arg);
            }
            options.put(arg.substring(2, eq), arg.substring(eq + 1));
        }
        int groups = Integer.parseInt(options.getOrDefault("groups", "60"));
        Duration jobDuration = Duration.ofMillis(Long.parseLong(options.getOrDefault("job-millis", "2000")));
        double timeScale = Double.parseDouble(options.getOrDefault("time-scale", "10"));
        List<Integer> kills = Arrays.stream(
                        options.getOrDefault("kills", "0,1,2").split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .map(Integer::valueOf)
                .toList();
        String jvm = options.getOrDefault("jvm-options", "").trim();
        List<String> jvmOptions = jvm.isEmpty() ? List.of() : List.of(jvm.split("\\s+"));
        Duration within = Duration.ofMinutes(Long.parseLong(options.getOrDefault("within-minutes", "10")));
        Path work = Path.of(options.getOrDefault("work", System.getProperty("java.io.tmpdir")));
        Files.createDirectories(work);
        Path dataDir = Files.createTempDirectory(work, "kill-nine-soak-");

        KillNineFleet.Settings settings =
                new KillNineFleet.Settings(groups, jobDuration, timeScale, kills, jvmOptions, within);
        double loadBefore = load();
        KillNineFleet.Report report = new KillNineFleet(settings, System.out).run(dataDir);
        double loadAfter = load();

        System.out.println();
        System.out.printf(
                "kill -9 soak: %d pipelines (%d cascades a -> b -> c, d), synchronous http jobs of %s, time scale %s,"
                        + " runtime JVM options %s, data in %s%n",
                settings.pipelines(),
                groups,
                KillNineFleet.seconds(jobDuration),
                timeScale,
                jvmOptions.isEmpty() ? "(default)" : String.join(" ", jvmOptions),
                dataDir);
        System.out.printf(
                "load average %.2f before, %.2f after; first start of the runtime %s%n",
                loadBefore, loadAfter, KillNineFleet.seconds(report.firstStartup()));
        System.out.println();
        System.out.println(
                "| kill | level | jobs running at the kill | at (after the roots' evaluation) | exit | restart ready in"
                        + " | executions resumed | interrupted days completed after the kill | journal left torn |");
        System.out.println("|---|---|---|---|---|---|---|---|---|");
        for (KillNineFleet.Kill kill : report.kills()) {
            System.out.printf(
                    "| %d | %s | %d | %s | %d | %s | %d | %s | %s |%n",
                    kill.number(),
                    List.of("a (roots)", "b", "c, d").get(kill.level()),
                    kill.runningJobs().size(),
                    KillNineFleet.seconds(kill.at()),
                    kill.exitCode(),
                    KillNineFleet.seconds(kill.restartStartup()),
                    kill.resumedExecutions(),
                    kill.recovered() == null ? "NOT within " + within : KillNineFleet.seconds(kill.recovered()),
                    kill.tornJournal());
        }
        System.out.println();
        int completed = report.days().size() - report.lost().size();
        System.out.printf(
                "days: %d, COMPLETED %d, lost %d%s%n",
                report.days().size(),
                completed,
                report.lost().size(),
                report.lost().isEmpty()
                        ? ""
                        : " "
                                + report.lost().stream()
                                        .map(d -> d.pipeline() + "=" + d.runLog() + d.runs())
                                        .toList());
        System.out.printf(
                "jobs started: %d (distinct days: %d), duplicate starts: %d%n",
                report.jobsStarted(),
                report.days().stream().filter(d -> d.jobStarts() > 0).count(),
                report.duplicates());
        System.out.printf(
                "Idempotency-Key replays: %d, runs re-claimed by a retried trigger: %d%n",
                report.replays(), report.reclaims());
        System.out.printf("executions: %s%n", report.executionsByStatus());
        System.out.printf(
                "alerts an interrupted day must not cause (EXECUTION_ERROR, TRIGGER_FAILED, STUCK_RUN): %s%n",
                report.forbiddenAlerts().isEmpty() ? "none" : report.forbiddenAlerts());
        System.out.printf(
                "from the last kill until every day COMPLETED: %s; whole soak %s%n",
                report.lastKillToAllDone() == null
                        ? "NOT within " + within
                        : KillNineFleet.seconds(report.lastKillToAllDone()),
                KillNineFleet.seconds(report.total()));
        boolean ok = report.lost().isEmpty()
                && report.duplicates() == 0
                && report.forbiddenAlerts().isEmpty();
        System.out.println(ok ? "kill -9 soak: no day lost, no job started twice" : "kill -9 soak: FAILED");
        System.exit(ok ? 0 : 1);
    }

    private static double load() {
        return java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }
}
